/**
 * Doris's published Grafana dashboard ("Doris Overview", 9734) finds its series on a live Galene: every
 * series selector in the panels' PromQL (fixtures/doris-grafana-9734.json) — metric name plus label
 * matchers — matches at least one sample of the FE or BE /metrics exposition. Scrape-time labels (job,
 * instance, group) are Prometheus's own and are not matched; `group` picks the FE or BE port.
 */
import assert from 'node:assert/strict';
import * as fs from 'node:fs';
import * as path from 'node:path';
import { test } from 'node:test';
import { PROJECT_ROOT, startGalene } from '../helpers/galene-process';
import { connect } from '../helpers/mysql-client';

interface Matcher {
  readonly label: string;
  readonly op: '=' | '!=' | '=~' | '!~';
  readonly value: string;
}

interface Selector {
  readonly name: string;
  readonly matchers: readonly Matcher[];
  /** The group="fe" / group="be" matcher, when the expression has one. */
  readonly group: 'fe' | 'be' | null;
}

interface Sample {
  readonly name: string;
  readonly labels: Readonly<Record<string, string>>;
}

const SCRAPE_LABELS = new Set(['job', 'instance', 'group']);
/** Series Prometheus makes itself, not the exposition. */
const PROMETHEUS_SERIES = new Set(['up']);

/** The series selectors of one PromQL expression (functions, `by (...)` lists and ranges taken out). */
export function selectorsOf(expr: string): Selector[] {
  const stripped = expr.replace(/\[[^\]]*\]/g, '').replace(/\b(by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/gi, '');
  const selectors: Selector[] = [];
  const pattern = /([A-Za-z_:][A-Za-z0-9_:]*)\s*(\{[^}]*\})?/g;
  for (let match = pattern.exec(stripped); match !== null; match = pattern.exec(stripped)) {
    const rest = stripped.slice(match.index + match[0].length);
    if (match[2] === undefined && /^\s*\(/.test(rest)) continue; // a function or aggregation
    if (PROMETHEUS_SERIES.has(match[1])) continue;
    const matchers: Matcher[] = [];
    for (const part of (match[2] ?? '').slice(1, -1).matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"((?:[^"\\]|\\.)*)"/g)) {
      matchers.push({ label: part[1], op: part[2] as Matcher['op'], value: part[3] });
    }
    const group = matchers.find((matcher) => matcher.label === 'group')?.value;
    selectors.push({ name: match[1], matchers: matchers.filter((matcher) => !SCRAPE_LABELS.has(matcher.label)), group: group === 'fe' || group === 'be' ? group : null });
  }
  return selectors;
}

/** Every sample line of a text exposition: name and labels. */
function samplesOf(text: string): Sample[] {
  const samples: Sample[] = [];
  for (const line of text.split('\n')) {
    if (line === '' || line.startsWith('#')) continue;
    const match = /^([A-Za-z_:][A-Za-z0-9_:]*)(?:\{(.*)\})? \S+$/.exec(line);
    assert.ok(match, `exposition line: ${line}`);
    const labels: Record<string, string> = {};
    for (const part of (match[2] ?? '').matchAll(/(\w+)="((?:[^"\\]|\\.)*)"/g)) labels[part[1]] = part[2];
    samples.push({ name: match[1], labels });
  }
  return samples;
}

function matches(sample: Sample, selector: Selector): boolean {
  if (sample.name !== selector.name) return false;
  return selector.matchers.every(({ label, op, value }) => {
    if (value.includes('$')) return true; // a dashboard variable: any value
    const actual = sample.labels[label] ?? '';
    const regex = (): boolean => new RegExp(`^(?:${value})$`).test(actual);
    switch (op) {
      case '=':
        return actual === value;
      case '!=':
        return actual !== value;
      case '=~':
        return regex();
      case '!~':
        return !regex();
    }
  });
}

test('selector extraction: names, matchers, scrape labels and functions', () => {
  assert.deepEqual(selectorsOf('sum by (job)(rate(doris_fe_query_total{group="fe", job="$cluster"}[$interval]))'), [{ name: 'doris_fe_query_total', matchers: [], group: 'fe' }]);
  assert.deepEqual(
    selectorsOf('(sum(rate(doris_be_cpu{mode="idle", job="$cluster"}[$interval])) by (job, instance)) / sum(x_y) * 100'),
    [
      { name: 'doris_be_cpu', matchers: [{ label: 'mode', op: '=', value: 'idle' }], group: null },
      { name: 'x_y', matchers: [], group: null },
    ],
  );
  const missing = { name: 'doris_be_network_send_bytes', labels: { device: 'lo' } };
  assert.equal(matches(missing, selectorsOf('doris_be_network_send_bytes{device!="lo"}')[0]), false, 'a matcher can fail');
});

test("Doris's Grafana dashboard 9734 finds every series it queries on Galene's FE and BE /metrics", async () => {
  const dashboard = JSON.parse(fs.readFileSync(path.join(PROJECT_ROOT, 'test', 'integration', 'fixtures', 'doris-grafana-9734.json'), 'utf8')) as { panels: { title: string; expr: string }[] };
  const server = await startGalene({ args: ['--disable_auto_compaction', 'true'] });
  try {
    // Some traffic first: summaries get observations and the counters of loads and scans move.
    const conn = await connect(server.ports.query_port);
    const traffic = ['CREATE DATABASE g', 'CREATE TABLE g.t (k INT) DUPLICATE KEY(k) DISTRIBUTED BY HASH(k) BUCKETS 1', 'INSERT INTO g.t VALUES (1), (2)', 'SELECT * FROM g.t'];
    for (const sql of traffic) await conn.query(sql);
    await conn.end();
    const scrape = async (port: number): Promise<Sample[]> => samplesOf(await (await fetch(`http://127.0.0.1:${port}/metrics`)).text());
    const fe = await scrape(server.ports.http_port);
    const be = await scrape(server.ports.webserver_port);
    let checked = 0;
    for (const panel of dashboard.panels) {
      const selectors = selectorsOf(panel.expr);
      assert.ok(selectors.length > 0, `${panel.title}: no series in ${panel.expr}`);
      for (const selector of selectors) {
        const role = selector.group ?? (selector.name.startsWith('doris_be_') ? 'be' : 'fe');
        const found = (role === 'fe' ? fe : be).some((sample) => matches(sample, selector));
        assert.ok(found, `${panel.title}: no ${role.toUpperCase()} series ${selector.name}{${selector.matchers.map((m) => `${m.label}${m.op}"${m.value}"`).join(',')}} (${panel.expr})`);
        checked++;
      }
    }
    assert.ok(checked >= dashboard.panels.length, `${checked} selectors checked`);
  } finally {
    await server.stop();
  }
});
