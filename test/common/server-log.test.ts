/**
 * The server log writer: level filtering (sys_log_level, followed at run time), the warn file, rolling by
 * size with sys_log_roll_num files kept, and the validation of sys_log_level and sys_log_roll_mode.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as os from 'node:os';
import * as path from 'node:path';
import { test } from 'node:test';
import { Config } from '../../src/common/config';
import { ServerLog } from '../../src/common/server-log';

test('fe.log keeps lines at or above sys_log_level, fe.warn.log only WARN and above', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-log-'));
  const config = new Config({ sys_log_dir: dir, sys_log_level: 'WARN' });
  const log = new ServerLog(config, 'fe');
  log.log('INFO', 'main', 'not written');
  log.log('WARN', 'mysql-7', 'a warning', 'q-1');
  config.set('sys_log_level', 'info');
  log.log('INFO', 'main', 'now written');
  log.log('ERROR', 'http', 'an error');
  log.close();
  const all = fs.readFileSync(path.join(dir, 'fe.log'), 'utf8').trim().split('\n');
  assert.equal(all.length, 3);
  assert.match(all[0], /^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d,\d{3} WARN \(fe\|mysql-7\) \[query_id=q-1\] a warning$/);
  assert.match(all[1], / INFO \(fe\|main\) now written$/);
  const warn = fs.readFileSync(path.join(dir, 'fe.warn.log'), 'utf8').trim().split('\n');
  assert.deepEqual(warn.map((line) => line.replace(/^\S+ \S+ /, '')), ['WARN (fe|mysql-7) [query_id=q-1] a warning', 'ERROR (fe|http) an error']);
});

test('logs roll by size: fe.log.1 ... fe.log.<sys_log_roll_num>, the oldest deleted', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-log-'));
  const config = new Config({ sys_log_dir: dir, sys_log_roll_mode: 'SIZE-MB-1', sys_log_roll_num: 2 });
  const log = new ServerLog(config, 'fe');
  const message = 'x'.repeat(1000);
  // About 4.3 MB: fe.log rolls four times; only two rolled files stay.
  for (let lineIdx = 0; lineIdx < 4300; lineIdx++) log.log('INFO', 'main', `${lineIdx} ${message}`);
  log.close();
  const files = fs.readdirSync(dir).filter((name) => name.startsWith('fe.log')).sort();
  assert.deepEqual(files, ['fe.log', 'fe.log.1', 'fe.log.2']);
  for (const name of files) assert.ok(fs.statSync(path.join(dir, name)).size <= 1024 * 1024, name);
  const newest = fs.readFileSync(path.join(dir, 'fe.log'), 'utf8').trim().split('\n');
  assert.match(newest[newest.length - 1], / 4299 x+$/);
  const older = fs.readFileSync(path.join(dir, 'fe.log.1'), 'utf8').trim().split('\n');
  assert.equal(Number(/ (\d+) x+$/.exec(older[older.length - 1])![1]) + 1, Number(/ (\d+) x+$/.exec(newest[0])![1]));
});

test('sys_log_level and sys_log_roll_mode are validated', () => {
  assert.throws(() => new Config({ sys_log_level: 'VERBOSE' }), /sys_log_level.*must be one of DEBUG, INFO, WARN, ERROR, FATAL/);
  assert.throws(() => new Config({ sys_log_roll_mode: 'TIME-DAY' }), /sys_log_roll_mode.*SIZE-MB/);
  assert.throws(() => new Config().set('sys_log_level', 'LOUD'), /must be one of/);
  assert.equal(new Config({ sys_log_level: 'fatal' }).getString('sys_log_level'), 'fatal');
});

test("be.log / be.warn.log: the BE's pair, with be.conf's WARNING spelling of WARN", () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'galene-log-'));
  const config = new Config({ sys_log_dir: dir, sys_log_level: 'WARNING' });
  const log = new ServerLog(config, 'be');
  log.log('INFO', 'main', 'below WARNING');
  log.log('WARN', 'http-be', 'a failed load');
  log.close();
  log.log('ERROR', 'main', 'after close: dropped, no throw');
  assert.deepEqual(fs.readdirSync(dir).sort(), ['be.log', 'be.warn.log']);
  for (const name of ['be.log', 'be.warn.log']) assert.match(fs.readFileSync(path.join(dir, name), 'utf8'), /^\S+ \S+ WARN \(be\|http-be\) a failed load\n$/);
});
