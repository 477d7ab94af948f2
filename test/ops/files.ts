import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * Readers for the container files, for tests that run without a Docker engine: a YAML subset
 * (what compose.yaml uses), Dockerfile instructions by stage, and .dockerignore matching.
 */

export type Yaml = string | Yaml[] | { [key: string]: Yaml };

interface Line {
  indent: number;
  text: string;
  no: number;
}

function stripComment(text: string): string {
  let quote: string | null = null;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i] as string;
    if (quote) {
      if (ch === '\\' && quote === '"') i++;
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '#' && (i === 0 || text[i - 1] === ' ')) return text.slice(0, i).trimEnd();
  }
  return text.trimEnd();
}

function scalar(raw: string, no: number): string {
  const text = raw.trim();
  if (text.startsWith('"')) {
    if (!text.endsWith('"') || text.length < 2) throw new Error(`line ${no}: unterminated string`);
    return JSON.parse(text) as string;
  }
  if (text.startsWith("'")) {
    if (!text.endsWith("'") || text.length < 2) throw new Error(`line ${no}: unterminated string`);
    return text.slice(1, -1).replace(/''/g, "'");
  }
  if (/^[&*!|>{]/.test(text) || text === '---')
    throw new Error(`line ${no}: unsupported YAML (${text.slice(0, 20)})`);
  return text;
}

function flowSequence(raw: string, no: number): string[] {
  const inner = raw.trim().slice(1, -1);
  const items: string[] = [];
  let current = '';
  let quote: string | null = null;
  for (let i = 0; i < inner.length; i++) {
    const ch = inner[i] as string;
    if (quote) {
      current += ch;
      if (ch === '\\' && quote === '"') current += inner[++i] ?? '';
      else if (ch === quote) quote = null;
    } else if (ch === '"' || ch === "'") {
      quote = ch;
      current += ch;
    } else if (ch === ',') {
      items.push(scalar(current, no));
      current = '';
    } else if (ch === '[' || ch === '{') throw new Error(`line ${no}: nested flow collections`);
    else current += ch;
  }
  if (quote) throw new Error(`line ${no}: unterminated string`);
  if (current.trim()) items.push(scalar(current, no));
  return items;
}

function value(raw: string, no: number): Yaml {
  const text = raw.trim();
  if (text.startsWith('[')) {
    if (!text.endsWith(']')) throw new Error(`line ${no}: multi-line flow sequence`);
    return flowSequence(text, no);
  }
  return scalar(text, no);
}

function splitKey(text: string, no: number): [string, string] {
  const m = /^("(?:[^"\\]|\\.)*"|'[^']*'|[^\s:"'#][^:]*?)\s*:(?:\s+(.*)|)$/.exec(text);
  if (!m) throw new Error(`line ${no}: expected "key: value", got ${text}`);
  return [scalar(m[1] as string, no), m[2] ?? ''];
}

function block(lines: Line[], start: number, indent: number): [Yaml, number] {
  const first = lines[start];
  if (!first || first.indent < indent) return ['', start];
  if (first.text.startsWith('- ') || first.text === '-') {
    const list: Yaml[] = [];
    let i = start;
    while (
      i < lines.length &&
      (lines[i] as Line).indent === first.indent &&
      (lines[i] as Line).text.startsWith('-')
    ) {
      const line = lines[i] as Line;
      const rest = line.text.slice(1).trim();
      if (!rest) throw new Error(`line ${line.no}: nested block in a sequence item is not supported`);
      if (/^[^"'[].*?:(\s|$)/.test(rest))
        throw new Error(`line ${line.no}: maps in sequences are not supported`);
      list.push(value(rest, line.no));
      i++;
    }
    return [list, i];
  }
  const map: { [key: string]: Yaml } = {};
  let i = start;
  while (i < lines.length && (lines[i] as Line).indent === first.indent) {
    const line = lines[i] as Line;
    if (line.text.startsWith('-')) throw new Error(`line ${line.no}: a sequence item among map keys`);
    const [key, rest] = splitKey(line.text, line.no);
    if (key in map) throw new Error(`line ${line.no}: duplicate key ${key}`);
    i++;
    if (rest) {
      map[key] = value(rest, line.no);
      continue;
    }
    const next = lines[i];
    const nested =
      next && (next.indent > line.indent || (next.indent === line.indent && next.text.startsWith('- ')));
    if (!nested) {
      map[key] = '';
      continue;
    }
    const [child, after] = block(lines, i, (next as Line).indent);
    map[key] = child;
    i = after;
  }
  if (i < lines.length && (lines[i] as Line).indent > first.indent)
    throw new Error(`line ${(lines[i] as Line).no}: unexpected indentation`);
  return [map, i];
}

/**
 * Parses the YAML subset compose files need: block maps, block sequences of scalars, one-line flow
 * sequences of scalars, plain/single/double-quoted scalars (all kept as strings) and comments.
 * Anchors, aliases, tags, block scalars, flow maps and maps inside sequences throw.
 */
export function parseYaml(text: string): Yaml {
  const lines: Line[] = [];
  text.split('\n').forEach((rawLine, index) => {
    if (/^\t| \t/.test(rawLine)) throw new Error(`line ${index + 1}: tabs are not YAML indentation`);
    const body = stripComment(rawLine);
    if (!body.trim()) return;
    lines.push({ indent: body.length - body.trimStart().length, text: body.trim(), no: index + 1 });
  });
  const [root, end] = block(lines, 0, 0);
  if (end !== lines.length) throw new Error(`line ${(lines[end] as Line).no}: content after the document`);
  return root;
}

/** A map of the YAML, as a test reads it; anything else (a scalar, a sequence, nothing) throws. */
export type YamlMap = { [key: string]: Yaml };
export function asMap(y: Yaml | undefined): YamlMap {
  if (typeof y !== 'object' || y === null || Array.isArray(y))
    throw new Error(`not a map: ${JSON.stringify(y)}`);
  return y;
}

/** A file of the repository, as text. */
export function readRepoFile(path: string): string {
  return readFileSync(join(import.meta.dirname, '../..', path), 'utf8');
}

/** One Dockerfile instruction (continuation lines joined). */
export interface Instruction {
  op: string;
  args: string;
}

/** Dockerfile instructions grouped by stage (each FROM starts one). */
export function dockerfileStages(text: string): Instruction[][] {
  const stages: Instruction[][] = [];
  let pending = '';
  for (const raw of text.split('\n')) {
    const line = raw.trim();
    if (!pending && (line.startsWith('#') || !line)) continue;
    if (line.startsWith('#')) continue;
    if (line.endsWith('\\')) {
      pending += `${line.slice(0, -1).trim()} `;
      continue;
    }
    const full = (pending + line).trim();
    pending = '';
    if (!full) continue;
    const m = /^(\S+)\s+(.*)$/.exec(full);
    if (!m) throw new Error(`bad instruction: ${full}`);
    const op = (m[1] as string).toUpperCase();
    if (op === 'FROM') stages.push([]);
    const stage = stages[stages.length - 1];
    if (!stage) throw new Error(`${op} before FROM`);
    stage.push({ op, args: m[2] as string });
  }
  return stages;
}

/** The exec form of ENTRYPOINT/CMD/HEALTHCHECK CMD: a JSON array of strings, or a thrown error. */
export function execForm(args: string): string[] {
  const parsed = JSON.parse(args) as unknown;
  if (!Array.isArray(parsed) || !parsed.every((a) => typeof a === 'string'))
    throw new Error(`not an exec-form array: ${args}`);
  return parsed as string[];
}

/** ENV instructions of a stage as a map (`ENV A=1 B=2` form). */
export function stageEnv(stage: Instruction[]): Record<string, string> {
  const env: Record<string, string> = {};
  for (const i of stage.filter((x) => x.op === 'ENV')) {
    for (const m of i.args.matchAll(/([A-Za-z_][A-Za-z0-9_]*)=("(?:[^"\\]|\\.)*"|\S+)/g)) {
      const raw = m[2] as string;
      env[m[1] as string] = raw.startsWith('"') ? (JSON.parse(raw) as string) : raw;
    }
  }
  return env;
}

function patternRegex(pattern: string): RegExp {
  const clean = pattern.replace(/^\/+/, '').replace(/\/+$/, '');
  let re = '';
  for (let i = 0; i < clean.length; i++) {
    const ch = clean[i] as string;
    if (ch === '*' && clean[i + 1] === '*') {
      i++;
      if (clean[i + 1] === '/') {
        re += '(?:.*/)?';
        i++;
      } else re += '.*';
    } else if (ch === '*') re += '[^/]*';
    else if (ch === '?') re += '[^/]';
    else re += ch.replace(/[.+^${}()|[\]\\]/g, '\\$&');
  }
  return new RegExp(`^${re}$`);
}

/**
 * A .dockerignore as Docker applies it: patterns relative to the context root, `*`, `?` and `**`,
 * `!` re-includes, the last matching line wins, and a pattern that matches a directory excludes
 * everything under it.
 */
export function dockerignore(text: string): {
  excluded(path: string): boolean;
  reincludesUnder(dir: string): boolean;
} {
  const rules = text
    .split('\n')
    .map((l) => l.trim())
    .filter((l) => l && !l.startsWith('#'))
    .map((l) =>
      l.startsWith('!')
        ? { negate: true, re: patternRegex(l.slice(1)), raw: l.slice(1) }
        : { negate: false, re: patternRegex(l), raw: l },
    );
  return {
    excluded(path: string) {
      const parts = path.split('/');
      let out = false;
      for (const rule of rules) {
        for (let n = 1; n <= parts.length; n++) {
          if (rule.re.test(parts.slice(0, n).join('/'))) {
            out = !rule.negate;
            break;
          }
        }
      }
      return out;
    },
    reincludesUnder(dir: string) {
      return rules.some((r) => r.negate && r.raw.replace(/^\/+/, '').startsWith(`${dir}/`));
    },
  };
}
