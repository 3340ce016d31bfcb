/**
 * An in-process, seeded, deterministic generator of ClickBench's `hits` table (the published schema:
 * 105 columns, Doris's DDL from ClickBench `doris/create.sql`), as chunks of tab-separated text in the
 * DDL's column order, for Stream Load (Doris's default column_separator `\t`) and for DuckDB's COPY.
 * Used by bench/clickbench.ts.
 *
 * Value distributions are chosen so the 43 queries have something to find (real data: the Yandex.Metrica
 * 100M-row dump; this is not it, only its shape):
 * - EventDate uniform over July 2013, EventTime a second of that day, ClientEventTime / LocalEventTime
 *   within hours of it;
 * - CounterID: 62 (the counter of queries 37-43) on 15% of rows, 1 and 3 on 10% and 5%, the rest
 *   skewed over 1..5,000;
 * - UserID, URL, Title, Referer, SearchPhrase and MobilePhoneModel are picked from pools (users: rows / 8;
 *   URLs: rows / 10; phrases: rows / 20) with a power-law skew (index = pool x u^3), so a few values are
 *   very common and most are rare; the first user is 435090932899640449 (query 20);
 * - many empty strings as in the real data: SearchPhrase on 80% of rows, Referer on 40%, Title on 10%,
 *   URL on 2%, MobilePhoneModel on 90%, and most of the Openstat / UTM / Param / Social columns empty;
 * - AdvEngineID 0 on 97% of rows, SearchEngineID 0 where SearchPhrase is empty, IsMobile 1 on 10%,
 *   Refresh / IsLink / IsDownload / DontCountHits rarely 1, TraficSourceID from -1..10 (-1 and 6 included);
 * - URLHash / RefererHash are 63-bit hashes of URL / Referer, except that the most common URL hashes to
 *   2868770270353813622 and the most common Referer to 3594120000172545465 (queries 41 and 42's constants).
 *
 * What differs from the real data: no correlation between most columns (each is drawn on its own), a
 * smaller vocabulary (hosts, words, models from short lists), URLs without percent-encoding, no
 * tabs, newlines or backslashes in strings (so the text needs no escaping), and row counts set by --rows.
 *
 * Memory: the pools (a few hundred thousand short strings at 1M rows) and one chunk of text at a time.
 */
import { mulberry32 } from '../../src/common/prng';

/** The 105 columns in the published DDL's order (the order of the generated fields). */
export const HITS_COLUMNS: readonly string[] = (
  'CounterID EventDate UserID EventTime WatchID JavaEnable Title GoodEvent ClientIP RegionID CounterClass OS UserAgent URL Referer ' +
  'Refresh RefererCategoryID RefererRegionID URLCategoryID URLRegionID ResolutionWidth ResolutionHeight ResolutionDepth FlashMajor ' +
  'FlashMinor FlashMinor2 NetMajor NetMinor UserAgentMajor UserAgentMinor CookieEnable JavascriptEnable IsMobile MobilePhone ' +
  'MobilePhoneModel Params IPNetworkID TraficSourceID SearchEngineID SearchPhrase AdvEngineID IsArtifical WindowClientWidth ' +
  'WindowClientHeight ClientTimeZone ClientEventTime SilverlightVersion1 SilverlightVersion2 SilverlightVersion3 SilverlightVersion4 ' +
  'PageCharset CodeVersion IsLink IsDownload IsNotBounce FUniqID OriginalURL HID IsOldCounter IsEvent IsParameter DontCountHits ' +
  'WithHash HitColor LocalEventTime Age Sex Income Interests Robotness RemoteIP WindowName OpenerName HistoryLength BrowserLanguage ' +
  'BrowserCountry SocialNetwork SocialAction HTTPError SendTiming DNSTiming ConnectTiming ResponseStartTiming ResponseEndTiming ' +
  'FetchTiming SocialSourceNetworkID SocialSourcePage ParamPrice ParamOrderID ParamCurrency ParamCurrencyID OpenstatServiceName ' +
  'OpenstatCampaignID OpenstatAdID OpenstatSourceID UTMSource UTMMedium UTMCampaign UTMContent UTMTerm FromTag HasGCLID RefererHash ' +
  'URLHash CLID'
).split(' ');

/** One chunk of generated rows: tab-separated fields, `\n` after each row. */
export interface HitsChunk {
  readonly text: string;
  readonly rows: number;
}

/** The UserID that query 20 looks up; the most common user has it. */
export const QUERY20_USER_ID = '435090932899640449';
const QUERY42_URL_HASH = '2868770270353813622';
const QUERY41_REFERER_HASH = '3594120000172545465';

type Random = () => number;
const CHUNK_ROWS = 20_000;
const DAY_S = 86_400;
const JULY_2013 = Date.UTC(2013, 6, 1) / 1000;

const HOSTS = (
  'yandex.ru mail.ru vk.com google.com www.google.ru avito.ru auto.ru news.yandex.ru kinopoisk.ru odnoklassniki.ru ' +
  'livejournal.com rambler.ru lenta.ru rbc.ru market.yandex.ru maps.google.com youtube.com sport-express.ru ' +
  'irr.ru hh.ru drive2.ru ria.ru gazeta.ru kp.ru championat.com video.mail.ru games.mail.ru shop.example.com'
).split(' ');
const WORDS = (
  'news sport video games music film movie weather auto cars price buy sale photo online free download map ' +
  'search shop cart travel hotel tickets football hockey moscow russia work job school kino serial book ' +
  'phone iphone samsung android windows apple google yandex recipe health home garden'
).split(' ');
const TITLE_WORDS = [...WORDS, 'Google', 'Yandex', 'Mail.Ru', 'error', 'page', 'official', 'site'];
const MODELS = ['iPad', 'iPhone', 'GT-I9300', 'GT-I9100', 'HTC One', 'Lumia 920', 'Nexus 7', 'Xperia Z', 'GT-N7100', 'Galaxy Tab'];
const LANGUAGES = ['ru', 'en', 'uk', 'de', 'tr', 'kk', 'be', 'fr', 'es', 'it'];
const COUNTRIES = ['RU', 'UA', 'BY', 'KZ', 'US', 'DE', 'TR', 'GB', 'FR', 'IT'];
const CHARSETS = ['utf-8', 'windows-1251', 'koi8-r', ''];
const CURRENCIES = ['RUB', 'USD', 'EUR', 'UAH'];
const RESOLUTIONS: readonly (readonly [number, number])[] = [
  [1920, 1080], [1366, 768], [1280, 1024], [1024, 768], [1440, 900], [1600, 900], [1280, 800], [1680, 1050], [0, 0], [320, 480],
];
const USER_AGENT_MINORS = ['0', '1', 'D0', '5', 'dev', '2', 'b', '10', ''];

/** An index into a pool of `size` with a power-law skew toward the first entries. */
const skewed = (random: Random, size: number): number => Math.min(size - 1, Math.floor(size * random() ** 3));
const uniform = (random: Random, low: number, high: number): number => low + Math.floor(random() * (high - low + 1));
const pick = <T>(random: Random, values: readonly T[]): T => values[Math.floor(random() * values.length)];

/** A 63-bit non-negative integer (as decimal text) from two 32-bit random words. */
function random63(random: Random): string {
  return ((BigInt(Math.floor(random() * 0x80000000)) << 32n) | BigInt(Math.floor(random() * 0x100000000))).toString();
}

/** A 63-bit FNV-1a style hash of a string, as decimal text (stands in for ClickHouse's URLHash). */
function hash63(text: string): string {
  let low = 0x811c9dc5;
  let high = 0x01000193;
  for (let charIdx = 0; charIdx < text.length; charIdx++) {
    const code = text.charCodeAt(charIdx);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 7), 0x5bd1e995) >>> 0;
  }
  return ((BigInt(high & 0x7fffffff) << 32n) | BigInt(low)).toString();
}

function words(random: Random, pool: readonly string[], count: number): string {
  const out: string[] = [];
  for (let wordIdx = 0; wordIdx < count; wordIdx++) out.push(pick(random, pool));
  return out.join(' ');
}

function makeUrl(random: Random): string {
  const host = HOSTS[skewed(random, HOSTS.length)];
  const scheme = random() < 0.8 ? 'http://' : 'https://';
  const path = words(random, WORDS, uniform(random, 0, 3)).replace(/ /g, '/');
  const page = random() < 0.4 ? `${uniform(random, 1, 99999)}.html` : '';
  const query = random() < 0.3 ? `?id=${uniform(random, 1, 999999)}&q=${pick(random, WORDS)}` : '';
  return `${scheme}${host}/${path}${path && page ? '/' : ''}${page}${query}`;
}

function datetime(seconds: number): string {
  return new Date(seconds * 1000).toISOString().slice(0, 19).replace('T', ' ');
}

/** The pools rows pick from: URLs with titles and hashes, phrases, users with their IPs. */
interface Pools {
  readonly urls: string[];
  readonly urlHashes: string[];
  readonly titles: string[];
  readonly phrases: string[];
  readonly userIds: string[];
  readonly userIps: Int32Array;
  readonly userRegions: Int32Array;
}

function makePools(rows: number, random: Random): Pools {
  const urlCount = Math.max(100, Math.floor(rows / 10));
  const urls: string[] = [];
  const urlHashes: string[] = [];
  const titles: string[] = [];
  for (let urlIdx = 0; urlIdx < urlCount; urlIdx++) {
    const url = makeUrl(random);
    urls.push(url);
    urlHashes.push(urlIdx === 0 ? QUERY42_URL_HASH : hash63(url));
    titles.push(random() < 0.1 ? '' : words(random, TITLE_WORDS, uniform(random, 1, 8)));
  }
  const phraseCount = Math.max(50, Math.floor(rows / 20));
  const phrases: string[] = [];
  for (let phraseIdx = 0; phraseIdx < phraseCount; phraseIdx++) {
    const phrase = words(random, WORDS, uniform(random, 1, 4));
    phrases.push(random() < 0.1 ? `${phrase} ${uniform(random, 1, 2020)}` : random() < 0.05 ? phrase.replace(' ', '  ') : phrase);
  }
  const userCount = Math.max(20, Math.floor(rows / 8));
  const userIds: string[] = [];
  const userIps = new Int32Array(userCount);
  const userRegions = new Int32Array(userCount);
  for (let userIdx = 0; userIdx < userCount; userIdx++) {
    userIds.push(userIdx === 0 ? QUERY20_USER_ID : random63(random));
    userIps[userIdx] = (random() * 0x100000000) | 0;
    userRegions[userIdx] = random() < 0.3 ? 229 : 1 + skewed(random, 1000);
  }
  return { urls, urlHashes, titles, phrases, userIds, userIps, userRegions };
}

/** `rows` rows of hits in chunks; the same `rows` and `seed` always give the same text. */
export function* hitsChunks(rows: number, seed = 1): Generator<HitsChunk> {
  const random = mulberry32(seed * 7919 + 13);
  const pools = makePools(rows, random);
  const urlCount = pools.urls.length;
  const fields: string[] = new Array(HITS_COLUMNS.length);
  for (let start = 0; start < rows; start += CHUNK_ROWS) {
    const end = Math.min(rows, start + CHUNK_ROWS);
    const lines: string[] = new Array(end - start);
    for (let rowIdx = start; rowIdx < end; rowIdx++) {
      const counterDraw = random();
      const counterId = counterDraw < 0.15 ? 62 : counterDraw < 0.25 ? 1 : counterDraw < 0.3 ? 3 : 1 + skewed(random, 5000);
      const day = uniform(random, 0, 30);
      const eventSeconds = JULY_2013 + day * DAY_S + uniform(random, 0, DAY_S - 1);
      const user = skewed(random, pools.userIds.length);
      const urlIdx = skewed(random, urlCount);
      const url = random() < 0.02 ? '' : pools.urls[urlIdx];
      const hasReferer = random() >= 0.4;
      const refererIdx = skewed(random, urlCount);
      const referer = hasReferer ? pools.urls[refererIdx] : '';
      const refererHash = !hasReferer ? '0' : refererIdx === 0 ? QUERY41_REFERER_HASH : pools.urlHashes[refererIdx];
      const phrase = random() < 0.8 ? '' : pools.phrases[skewed(random, pools.phrases.length)];
      const isMobile = random() < 0.1 ? 1 : 0;
      const model = random() < 0.9 ? '' : MODELS[skewed(random, MODELS.length)];
      const [width, height] = RESOLUTIONS[skewed(random, RESOLUTIONS.length)];
      const sendTiming = random() < 0.5 ? 0 : uniform(random, 1, 3000);
      const timezoneHours = uniform(random, -3, 8);
      let f = 0;
      fields[f++] = String(counterId);
      fields[f++] = datetime(eventSeconds).slice(0, 10);
      fields[f++] = pools.userIds[user];
      fields[f++] = datetime(eventSeconds);
      fields[f++] = random63(random); // WatchID
      fields[f++] = String(random() < 0.7 ? 1 : 0); // JavaEnable
      fields[f++] = url === '' ? (random() < 0.5 ? '' : pools.titles[skewed(random, urlCount)]) : pools.titles[urlIdx];
      fields[f++] = '1'; // GoodEvent
      fields[f++] = String(pools.userIps[user]);
      fields[f++] = String(random() < 0.9 ? pools.userRegions[user] : 1 + skewed(random, 1000));
      fields[f++] = String(uniform(random, 0, 2)); // CounterClass
      fields[f++] = String(skewed(random, 60)); // OS
      fields[f++] = String(skewed(random, 120)); // UserAgent
      fields[f++] = url;
      fields[f++] = referer;
      fields[f++] = String(random() < 0.08 ? 1 : 0); // Refresh
      fields[f++] = String(random() < 0.7 ? 0 : uniform(random, 1, 30)); // RefererCategoryID
      fields[f++] = String(random() < 0.5 ? 0 : 1 + skewed(random, 1000)); // RefererRegionID
      fields[f++] = String(random() < 0.6 ? 0 : uniform(random, 1, 30)); // URLCategoryID
      fields[f++] = String(random() < 0.5 ? 0 : 1 + skewed(random, 1000)); // URLRegionID
      fields[f++] = String(width);
      fields[f++] = String(height);
      fields[f++] = String(width === 0 ? 0 : random() < 0.8 ? 24 : 32); // ResolutionDepth
      fields[f++] = String(random() < 0.4 ? 0 : uniform(random, 9, 11)); // FlashMajor
      fields[f++] = String(uniform(random, 0, 9)); // FlashMinor
      fields[f++] = random() < 0.8 ? '' : String(uniform(random, 0, 300)); // FlashMinor2
      fields[f++] = String(uniform(random, 0, 4)); // NetMajor
      fields[f++] = String(uniform(random, 0, 5)); // NetMinor
      fields[f++] = String(skewed(random, 40)); // UserAgentMajor
      fields[f++] = USER_AGENT_MINORS[skewed(random, USER_AGENT_MINORS.length)];
      fields[f++] = String(random() < 0.97 ? 1 : 0); // CookieEnable
      fields[f++] = String(random() < 0.95 ? 1 : 0); // JavascriptEnable
      fields[f++] = String(isMobile);
      fields[f++] = String(model === '' ? 0 : 1 + MODELS.indexOf(model)); // MobilePhone
      fields[f++] = model;
      fields[f++] = random() < 0.95 ? '' : `p=${uniform(random, 1, 100)}`; // Params
      fields[f++] = String(pools.userIps[user] >>> 8); // IPNetworkID
      fields[f++] = String(uniform(random, -1, 10)); // TraficSourceID
      fields[f++] = String(phrase === '' ? 0 : 1 + skewed(random, 30)); // SearchEngineID
      fields[f++] = phrase;
      fields[f++] = String(random() < 0.97 ? 0 : pick(random, [2, 12, 13, 27, 3, 4])); // AdvEngineID
      fields[f++] = '0'; // IsArtifical
      fields[f++] = String(Math.max(0, width - uniform(random, 0, 40))); // WindowClientWidth
      fields[f++] = String(Math.max(0, height - uniform(random, 60, 200))); // WindowClientHeight
      fields[f++] = String(timezoneHours); // ClientTimeZone
      fields[f++] = datetime(eventSeconds + uniform(random, -120, 120)); // ClientEventTime
      fields[f++] = String(uniform(random, 0, 5)); // SilverlightVersion1
      fields[f++] = String(uniform(random, 0, 1)); // SilverlightVersion2
      fields[f++] = String(random() < 0.7 ? 0 : uniform(random, 1, 70000)); // SilverlightVersion3
      fields[f++] = String(uniform(random, 0, 2)); // SilverlightVersion4
      fields[f++] = CHARSETS[skewed(random, CHARSETS.length)];
      fields[f++] = String(uniform(random, 0, 1000)); // CodeVersion
      fields[f++] = String(random() < 0.05 ? 1 : 0); // IsLink
      fields[f++] = String(random() < 0.01 ? 1 : 0); // IsDownload
      fields[f++] = String(random() < 0.3 ? 1 : 0); // IsNotBounce
      fields[f++] = random() < 0.5 ? '0' : random63(random); // FUniqID
      fields[f++] = random() < 0.9 ? '' : pools.urls[skewed(random, urlCount)]; // OriginalURL
      fields[f++] = String((random() * 0x100000000) | 0); // HID
      fields[f++] = '0'; // IsOldCounter
      fields[f++] = String(random() < 0.02 ? 1 : 0); // IsEvent
      fields[f++] = String(random() < 0.05 ? 1 : 0); // IsParameter
      fields[f++] = String(random() < 0.05 ? 1 : 0); // DontCountHits
      fields[f++] = String(random() < 0.02 ? 1 : 0); // WithHash
      fields[f++] = pick(random, ['D', 'E', 'F', '5']); // HitColor
      fields[f++] = datetime(eventSeconds + timezoneHours * 3600); // LocalEventTime
      fields[f++] = String(random() < 0.4 ? 0 : uniform(random, 14, 60)); // Age
      fields[f++] = String(uniform(random, 0, 2)); // Sex
      fields[f++] = String(uniform(random, 0, 4)); // Income
      fields[f++] = String(uniform(random, 0, 32767)); // Interests
      fields[f++] = String(random() < 0.95 ? 0 : uniform(random, 1, 5)); // Robotness
      fields[f++] = String((random() * 0x100000000) | 0); // RemoteIP
      fields[f++] = String(random() < 0.7 ? -1 : uniform(random, 0, 10000)); // WindowName
      fields[f++] = String(random() < 0.7 ? -1 : uniform(random, 0, 10000)); // OpenerName
      fields[f++] = String(uniform(random, 0, 20)); // HistoryLength
      fields[f++] = random() < 0.05 ? '' : LANGUAGES[skewed(random, LANGUAGES.length)];
      fields[f++] = random() < 0.05 ? '' : COUNTRIES[skewed(random, COUNTRIES.length)];
      fields[f++] = random() < 0.97 ? '' : pick(random, ['vkontakte', 'facebook', 'odnoklassniki']); // SocialNetwork
      fields[f++] = random() < 0.98 ? '' : pick(random, ['like', 'share']); // SocialAction
      fields[f++] = String(random() < 0.99 ? 0 : pick(random, [404, 500, 403])); // HTTPError
      fields[f++] = String(sendTiming);
      fields[f++] = String(sendTiming === 0 ? 0 : uniform(random, 0, 500)); // DNSTiming
      fields[f++] = String(sendTiming === 0 ? 0 : uniform(random, 0, 800)); // ConnectTiming
      fields[f++] = String(sendTiming === 0 ? 0 : uniform(random, 0, 2000)); // ResponseStartTiming
      fields[f++] = String(sendTiming === 0 ? 0 : uniform(random, 0, 4000)); // ResponseEndTiming
      fields[f++] = String(sendTiming === 0 ? 0 : uniform(random, 0, 6000)); // FetchTiming
      fields[f++] = String(random() < 0.97 ? 0 : uniform(random, 1, 10)); // SocialSourceNetworkID
      fields[f++] = random() < 0.97 ? '' : `http://vk.com/${pick(random, WORDS)}`; // SocialSourcePage
      fields[f++] = String(random() < 0.98 ? 0 : uniform(random, 1, 1000000)); // ParamPrice
      fields[f++] = random() < 0.98 ? '' : String(uniform(random, 1, 99999)); // ParamOrderID
      fields[f++] = random() < 0.97 ? '' : pick(random, CURRENCIES); // ParamCurrency
      fields[f++] = String(uniform(random, 0, 3)); // ParamCurrencyID
      fields[f++] = random() < 0.98 ? '' : pick(random, ['yandex_direct', 'begun', 'adfox']); // OpenstatServiceName
      fields[f++] = random() < 0.99 ? '' : String(uniform(random, 1, 999)); // OpenstatCampaignID
      fields[f++] = random() < 0.99 ? '' : String(uniform(random, 1, 999)); // OpenstatAdID
      fields[f++] = random() < 0.99 ? '' : String(uniform(random, 1, 999)); // OpenstatSourceID
      fields[f++] = random() < 0.96 ? '' : pick(random, ['yandex', 'google', 'vk', 'email']); // UTMSource
      fields[f++] = random() < 0.97 ? '' : pick(random, ['cpc', 'banner', 'email']); // UTMMedium
      fields[f++] = random() < 0.98 ? '' : `campaign${uniform(random, 1, 50)}`; // UTMCampaign
      fields[f++] = random() < 0.99 ? '' : `content${uniform(random, 1, 50)}`; // UTMContent
      fields[f++] = random() < 0.99 ? '' : pick(random, WORDS); // UTMTerm
      fields[f++] = random() < 0.97 ? '' : pick(random, ['openstat', 'ya', 'direct']); // FromTag
      fields[f++] = String(random() < 0.02 ? 1 : 0); // HasGCLID
      fields[f++] = refererHash;
      fields[f++] = url === '' ? '0' : pools.urlHashes[urlIdx];
      fields[f++] = String(random() < 0.95 ? 0 : uniform(random, 1, 10000)); // CLID
      lines[rowIdx - start] = fields.join('\t');
    }
    yield { text: lines.join('\n') + '\n', rows: end - start };
  }
}
