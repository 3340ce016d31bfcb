/**
 * Doris's xpath_string(xml, xpath): the string value of the first node an XPath selects ('' when none),
 * as pugixml's evaluate_string gives it: an element's text content (every descendant text and CDATA,
 * comments left out), an attribute's value. A small XML reader and the XPath subset Doris's examples use:
 * absolute and relative location paths, `//`, `*`, `.`, `..`, `text()`, `node()`, `@attr`, and predicates
 * `[n]`, `[last()]`, `[@a]`, `[@a="v"]`, `[child="v"]`, `[text()="v"]`.
 */
import { galeneError } from '../../../common/errors';
import { Types } from '../../../common/types';
import type { FunctionDef } from '../function-registry';
import { arg } from '../signature';
import { str, stringRows } from './text-functions';

interface XmlElement {
  readonly kind: 'element';
  readonly name: string;
  readonly attrs: Map<string, string>;
  readonly children: XmlNode[];
  readonly parent: XmlElement | null;
}
interface XmlText {
  readonly kind: 'text';
  readonly text: string;
  readonly parent: XmlElement;
}
interface XmlAttr {
  readonly kind: 'attr';
  readonly value: string;
}
type XmlNode = XmlElement | XmlText;
type Selected = XmlNode | XmlAttr;

const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: "'" };

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|\w+);/gi, (whole, name: string) => {
    if (name[0] === '#') return String.fromCodePoint(name[1] === 'x' || name[1] === 'X' ? parseInt(name.slice(2), 16) : Number(name.slice(1)));
    return ENTITIES[name] ?? whole;
  });
}

const badXml = (): Error => galeneError('INVALID_ARGUMENT', 'Function xpath_string failed to parse XML string');

/** The document node (name '') holding the top-level nodes. */
function parseXml(text: string): XmlElement {
  const root: XmlElement = { kind: 'element', name: '', attrs: new Map(), children: [], parent: null };
  let current = root;
  let pos = 0;
  while (pos < text.length) {
    const lt = text.indexOf('<', pos);
    const end = lt < 0 ? text.length : lt;
    if (end > pos) {
      const raw = text.slice(pos, end);
      if (current !== root) current.children.push({ kind: 'text', text: decodeEntities(raw), parent: current });
      else if (raw.trim() !== '') throw badXml();
    }
    if (lt < 0) break;
    if (text.startsWith('<!--', lt)) {
      const close = text.indexOf('-->', lt + 4);
      if (close < 0) throw badXml();
      pos = close + 3;
    } else if (text.startsWith('<![CDATA[', lt)) {
      const close = text.indexOf(']]>', lt + 9);
      if (close < 0 || current === root) throw badXml();
      current.children.push({ kind: 'text', text: text.slice(lt + 9, close), parent: current });
      pos = close + 3;
    } else if (text.startsWith('<?', lt) || text.startsWith('<!', lt)) {
      const close = text.indexOf('>', lt);
      if (close < 0) throw badXml();
      pos = close + 1;
    } else if (text.startsWith('</', lt)) {
      const close = text.indexOf('>', lt);
      if (close < 0 || text.slice(lt + 2, close).trim() !== current.name || current.parent === null) throw badXml();
      current = current.parent;
      pos = close + 1;
    } else {
      const tag = /^<([A-Za-z_:][\w:.-]*)((?:\s+[A-Za-z_:][\w:.-]*\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*(\/?)>/.exec(text.slice(lt));
      if (tag === null) throw badXml();
      const attrs = new Map<string, string>();
      for (const attr of tag[2].matchAll(/([A-Za-z_:][\w:.-]*)\s*=\s*(?:"([^"]*)"|'([^']*)')/g)) attrs.set(attr[1], decodeEntities(attr[2] ?? attr[3]));
      const element: XmlElement = { kind: 'element', name: tag[1], attrs, children: [], parent: current };
      current.children.push(element);
      if (tag[3] !== '/') current = element;
      pos = lt + tag[0].length;
    }
  }
  if (current !== root) throw badXml();
  return root;
}

function textContent(node: Selected): string {
  if (node.kind === 'attr') return node.value;
  if (node.kind === 'text') return node.text;
  return node.children.map(textContent).join('');
}

function descendantsOrSelf(node: XmlElement, out: XmlNode[]): void {
  out.push(node);
  for (const child of node.children) if (child.kind === 'element') descendantsOrSelf(child, out);
  else out.push(child);
}

const badPath = (xpath: string): Error => galeneError('INVALID_ARGUMENT', `Function xpath_string failed to parse XPath: ${xpath}`);

/** One step's nodes from one context node. */
function stepNodes(context: XmlNode, test: string, xpath: string): Selected[] {
  if (test === '.') return [context];
  if (test === '..') return context.parent === null ? [] : [context.parent];
  if (context.kind !== 'element') return [];
  if (test.startsWith('@')) {
    const name = test.slice(1);
    if (name === '*') return [...context.attrs.values()].map((value) => ({ kind: 'attr', value }));
    const value = context.attrs.get(name);
    return value === undefined ? [] : [{ kind: 'attr', value }];
  }
  if (test === 'text()') return context.children.filter((child) => child.kind === 'text');
  if (test === 'node()') return context.children;
  if (test === '*') return context.children.filter((child) => child.kind === 'element');
  if (!/^[A-Za-z_][\w:.-]*$/.test(test)) throw badPath(xpath);
  return context.children.filter((child) => child.kind === 'element' && child.name === test);
}

function unquote(text: string): string | null {
  const match = /^\s*(?:"([^"]*)"|'([^']*)')\s*$/.exec(text);
  return match === null ? null : (match[1] ?? match[2]);
}

function applyPredicate(nodes: Selected[], predicate: string, xpath: string): Selected[] {
  const body = predicate.trim();
  if (/^\d+$/.test(body)) return nodes[Number(body) - 1] === undefined ? [] : [nodes[Number(body) - 1]];
  if (body === 'last()') return nodes.length === 0 ? [] : [nodes[nodes.length - 1]];
  const eq = body.indexOf('=');
  const left = (eq < 0 ? body : body.slice(0, eq)).trim();
  const wanted = eq < 0 ? null : unquote(body.slice(eq + 1));
  if (eq >= 0 && wanted === null) throw badPath(xpath);
  return nodes.filter((node) => {
    if (node.kind === 'attr') return false;
    const values = stepNodes(node, left, xpath).map(textContent);
    return wanted === null ? values.length > 0 : values.includes(wanted);
  });
}

/** The string value of the first node `xpath` selects in `xml`; '' when none. */
export function xpathString(xml: string, xpath: string): string {
  const root = parseXml(xml);
  const path = xpath.trim();
  if (path === '') throw badPath(xpath);
  // Steps with their axis: '//' before a step selects from every descendant-or-self of the context.
  const steps: { deep: boolean; test: string; predicates: string[] }[] = [];
  // A relative path starts at the document node, like an absolute one.
  let rest = path.startsWith('/') ? path : '/' + path;
  const stepRe = /^(\/\/?)([^/[\]]+)((?:\[[^\]]*\])*)/;
  while (rest !== '') {
    const match = stepRe.exec(rest);
    if (match === null) throw badPath(xpath);
    steps.push({ deep: match[1] === '//', test: match[2].trim(), predicates: [...match[3].matchAll(/\[([^\]]*)\]/g)].map((p) => p[1]) });
    rest = rest.slice(match[0].length);
  }
  let current: Selected[] = [root];
  for (const step of steps) {
    const next: Selected[] = [];
    for (const context of current) {
      if (context.kind === 'attr') continue;
      const contexts: XmlNode[] = [];
      if (step.deep && context.kind === 'element') descendantsOrSelf(context, contexts);
      else contexts.push(context);
      for (const from of contexts) {
        let selected = stepNodes(from, step.test, xpath);
        for (const predicate of step.predicates) selected = applyPredicate(selected, predicate, xpath);
        for (const node of selected) if (!next.includes(node)) next.push(node);
      }
    }
    current = next;
  }
  return current.length === 0 ? '' : textContent(current[0]);
}

export const XML_FUNCTIONS: FunctionDef[] = [
  str({
    name: 'xpath_string',
    args: [arg('xml', 'STRING'), arg('xpath', 'STRING')],
    returns: Types.STRING,
    kernel: (args, rowCount, site) => stringRows(args, rowCount, site, ([xmls, paths], rowIdx) => xpathString(xmls[rowIdx] ?? '', paths[rowIdx] ?? '')),
    description: "The text of the first XML node the XPath selects (an element's text content, an attribute's value); '' when none; bad XML or XPath is an error.",
    example: `SELECT xpath_string('<a><b id="1">b1</b><b id="2">b2</b></a>', '//b[@id="2"]')`,
  }),
];
