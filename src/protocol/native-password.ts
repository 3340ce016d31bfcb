/**
 * mysql_native_password: the challenge-response that MySQL 5.7 and Doris use.
 *
 * The server stores SHA1(SHA1(password)); the client proves it knows the password by sending
 * SHA1(password) XOR SHA1(scramble + SHA1(SHA1(password))). The server recovers SHA1(password) with the
 * same XOR and checks that its SHA1 equals the stored hash, so the password never crosses the wire.
 * https://dev.mysql.com/doc/dev/mysql-server/latest/page_protocol_connection_phase_authentication_methods_native_password_authentication.html
 */
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';

export const SCRAMBLE_LENGTH = 20;

function sha1(...parts: Uint8Array[]): Buffer {
  const hash = createHash('sha1');
  for (const part of parts) hash.update(part);
  return hash.digest();
}

/**
 * A fresh 20-byte challenge of printable ASCII (33..126) as MySQL makes it: clients that read the second
 * half of the scramble as a NUL-terminated string must never meet a zero byte inside it.
 */
export function newScramble(): Buffer {
  const scramble = randomBytes(SCRAMBLE_LENGTH);
  for (let byteIdx = 0; byteIdx < SCRAMBLE_LENGTH; byteIdx++) scramble[byteIdx] = 33 + (scramble[byteIdx] % 94);
  return scramble;
}

/** SHA1(SHA1(password)), the form `UserAuthInfo.passwordDoubleSha1` stores; null for an empty password. */
export function nativePasswordDoubleSha1(password: string): Buffer | null {
  if (password === '') return null;
  return sha1(sha1(Buffer.from(password, 'utf8')));
}

/** What a client computes from the password and the scramble (used by tests and internal clients). */
export function nativePasswordToken(password: string, scramble: Uint8Array): Buffer {
  if (password === '') return Buffer.alloc(0);
  const stage1 = sha1(Buffer.from(password, 'utf8'));
  const stage2 = sha1(stage1);
  const mask = sha1(scramble, stage2);
  for (let byteIdx = 0; byteIdx < stage1.length; byteIdx++) stage1[byteIdx] ^= mask[byteIdx];
  return stage1;
}

/**
 * Whether `token` proves the password whose double SHA1 is stored. A null stored hash (empty password)
 * accepts only an empty token.
 */
export function verifyNativePassword(token: Uint8Array, scramble: Uint8Array, stored: Buffer | null): boolean {
  if (stored === null) return token.length === 0;
  if (token.length !== SCRAMBLE_LENGTH || stored.length !== SCRAMBLE_LENGTH) return false;
  const mask = sha1(scramble, stored);
  const stage1 = Buffer.allocUnsafe(SCRAMBLE_LENGTH);
  for (let byteIdx = 0; byteIdx < SCRAMBLE_LENGTH; byteIdx++) stage1[byteIdx] = token[byteIdx] ^ mask[byteIdx];
  return timingSafeEqual(sha1(stage1), stored);
}
