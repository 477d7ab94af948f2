/**
 * Finds the exact source text of a top-level member of a JSON object, so a signature can be checked
 * over the bytes the client sent. Returns null when the text is not an object or has no such member.
 * The text must already be valid JSON (parse it first).
 */
export function rawJsonMember(text: string, name: string): string | null {
  let i = skipWs(text, 0);
  if (text[i] !== '{') return null;
  i++;
  let found: string | null = null;
  while (i < text.length) {
    i = skipWs(text, i);
    if (text[i] === '}') return found;
    if (text[i] === ',') {
      i++;
      continue;
    }
    const keyEnd = skipString(text, i);
    const key = JSON.parse(text.slice(i, keyEnd)) as string;
    i = skipWs(text, keyEnd);
    i++; // ':'
    i = skipWs(text, i);
    const valueEnd = skipValue(text, i);
    if (key === name) found = text.slice(i, valueEnd); // the last duplicate wins, as JSON.parse does
    i = valueEnd;
  }
  return found;
}

function skipWs(text: string, i: number): number {
  while (i < text.length) {
    const c = text.charCodeAt(i);
    if (c !== 0x20 && c !== 0x0a && c !== 0x0d && c !== 0x09) break;
    i++;
  }
  return i;
}

function skipString(text: string, i: number): number {
  i++; // opening quote
  while (i < text.length) {
    const c = text[i];
    if (c === '\\') i += 2;
    else if (c === '"') return i + 1;
    else i++;
  }
  return i;
}

function skipValue(text: string, i: number): number {
  const c = text[i];
  if (c === '"') return skipString(text, i);
  if (c === '{' || c === '[') {
    let depth = 0;
    while (i < text.length) {
      const d = text[i];
      if (d === '"') {
        i = skipString(text, i);
        continue;
      }
      if (d === '{' || d === '[') depth++;
      else if (d === '}' || d === ']') {
        depth--;
        if (depth === 0) return i + 1;
      }
      i++;
    }
    return i;
  }
  while (i < text.length && !',}] \n\r\t'.includes(text[i] as string)) i++;
  return i;
}
