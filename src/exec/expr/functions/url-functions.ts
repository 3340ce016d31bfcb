/**
 * URL functions as Doris (after ClickHouse) defines them: parse_url, extract_url_parameter, protocol,
 * domain, domain_without_www, top_level_domain, first_significant_subdomain and
 * cut_to_first_significant_subdomain. A URL without a scheme is read from its host; text that is not a
 * URL gives an empty string (parse_url: NULL).
 */
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { arg, opt } from '../signature';
import { str } from './text-functions';
import { StringOut, toJsStrings } from '../vector-ops';

interface UrlParts {
  protocol: string;
  userinfo: string;
  host: string;
  port: string;
  path: string;
  query: string;
  ref: string;
}

const URL_SHAPE = /^(?:([A-Za-z][A-Za-z0-9+.-]*):)?(?:\/\/(?:([^@/?#]*)@)?([^:/?#]*)(?::(\d*))?)?([^?#]*)(?:\?([^#]*))?(?:#(.*))?$/s;

/** The parts of a URL; a text without '//' is read as host[:port][/path] (as ClickHouse's domain() does). */
export function splitUrl(text: string): UrlParts | null {
  let url = text.trim();
  if (!url.includes('//')) url = `//${url}`;
  const match = URL_SHAPE.exec(url);
  if (!match) return null;
  return { protocol: match[1] ?? '', userinfo: match[2] ?? '', host: match[3] ?? '', port: match[4] ?? '', path: match[5] ?? '', query: match[6] ?? '', ref: match[7] ?? '' };
}

function queryParameter(query: string, name: string): string | null {
  for (const pair of query.split('&')) {
    const eq = pair.indexOf('=');
    if ((eq < 0 ? pair : pair.slice(0, eq)) === name) return eq < 0 ? '' : pair.slice(eq + 1);
  }
  return null;
}

const SIGNIFICANT_SKIP = new Set(['com', 'net', 'org', 'co']);

/** The index, in the host's labels, of its first significant subdomain ('yandex' in news.yandex.com.tr). */
function significantIndex(labels: readonly string[]): number {
  if (labels.length < 2) return labels.length - 1;
  const second = labels.length - 2;
  return SIGNIFICANT_SKIP.has(labels[second]) && second > 0 ? second - 1 : second;
}

function urlDef(name: string, description: string, pick: (parts: UrlParts) => string, example: string): FunctionDef {
  return str({
    name,
    args: [arg('url', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const urls = toJsStrings(args[0]);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const parts = splitUrl(urls[rowIdx] ?? '');
        out.push(parts === null ? '' : pick(parts));
      }
      return out.finish();
    },
    description,
    example,
  });
}

const hostLabels = (parts: UrlParts): string[] => (parts.host === '' ? [] : parts.host.split('.'));

export const URL_FUNCTIONS: readonly FunctionDef[] = [
  str({
    name: 'parse_url',
    args: [arg('url', 'STRING'), arg('part', 'STRING'), opt('key', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [urls, names] = [toJsStrings(args[0]), toJsStrings(args[1])];
      const keys = args.length > 2 ? toJsStrings(args[2]) : null;
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const url = (urls[rowIdx] ?? '').trim();
        const parts = url.includes('://') ? splitUrl(url) : null;
        let value: string | null = null;
        if (parts !== null) {
          const auth = `${parts.userinfo === '' ? '' : parts.userinfo + '@'}${parts.host}${parts.port === '' ? '' : ':' + parts.port}`;
          switch ((names[rowIdx] ?? '').toUpperCase()) {
            case 'PROTOCOL': value = parts.protocol; break;
            case 'HOST': value = parts.host; break;
            case 'PATH': value = parts.path; break;
            case 'QUERY': value = keys === null ? parts.query : queryParameter(parts.query, keys[rowIdx] ?? ''); break;
            case 'REF': value = parts.ref; break;
            case 'AUTHORITY': value = auth; break;
            case 'FILE': value = parts.query === '' ? parts.path : `${parts.path}?${parts.query}`; break;
            case 'USERINFO': value = parts.userinfo; break;
            case 'PORT': value = parts.port; break;
          }
        }
        if (value === null || (value === '' && (names[rowIdx] ?? '').toUpperCase() !== 'PATH')) out.pushNull();
        else out.push(value);
      }
      return out.finish();
    },
    description: "A part of a URL: 'PROTOCOL', 'HOST', 'PATH', 'QUERY' (with key: that parameter), 'REF', 'AUTHORITY', 'FILE', 'USERINFO', 'PORT'; NULL when absent.",
    example: "SELECT parse_url('https://doris.apache.org/docs?a=1', 'HOST')",
  }),
  str({
    name: 'extract_url_parameter',
    args: [arg('url', 'STRING'), arg('name', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => {
      const [urls, names] = args.map(toJsStrings);
      const out = new StringOut(site.returnType, rowCount);
      for (let rowIdx = 0; rowIdx < rowCount; rowIdx++) {
        const parts = splitUrl(urls[rowIdx] ?? '');
        out.push(parts === null ? '' : queryParameter(parts.query, names[rowIdx] ?? '') ?? '');
      }
      return out.finish();
    },
    description: 'The value of the named query parameter of a URL, or an empty string.',
    example: "SELECT extract_url_parameter('http://doris.apache.org?k1=aa&k2=bb&test=cc#999', 'k2')",
  }),
  urlDef('protocol', "The scheme of a URL ('https'), or an empty string.", (parts) => parts.protocol, "SELECT protocol('https://doris.apache.org/')"),
  urlDef('domain', 'The host of a URL.', (parts) => parts.host, "SELECT domain('https://doris.apache.org/docs/gettingStarted/quick-start')"),
  urlDef('domain_without_www', "The host of a URL without a leading 'www.'.", (parts) => parts.host.replace(/^www\./, ''), "SELECT domain_without_www('https://www.apache.org/')"),
  urlDef('top_level_domain', "The last label of a URL's host ('com').", (parts) => (/^\d+(\.\d+){3}$/.test(parts.host) ? '' : hostLabels(parts).pop() ?? ''), "SELECT top_level_domain('https://www.apache.org')"),
  urlDef('first_significant_subdomain', "The host's second-level label, or its third when the second is com, net, org or co ('yandex' in news.yandex.com.tr).", (parts) => {
    const labels = hostLabels(parts);
    return labels.length === 0 ? '' : labels[significantIndex(labels)];
  }, "SELECT first_significant_subdomain('https://news.yandex.com.tr/')"),
  urlDef('cut_to_first_significant_subdomain', "The host from its first significant subdomain on ('yandex.com.tr').", (parts) => {
    const labels = hostLabels(parts);
    return labels.length === 0 ? '' : labels.slice(significantIndex(labels)).join('.');
  }, "SELECT cut_to_first_significant_subdomain('https://news.yandex.com.tr/')"),
];
