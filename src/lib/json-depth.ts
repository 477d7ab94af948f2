/**
 * Whether JSON text nests arrays and objects deeper than `max` levels (`{}` is one level, `{"a":[]}`
 * two). A single pass that only tracks strings and brackets, so it is safe on any input, valid
 * JSON or not, however deep: it never recurses. Run it before JSON.parse and before anything that
 * walks the parsed value recursively (JSON.stringify, validation), which overflow the stack on
 * deeply nested input.
 */
export function jsonDepthExceeds(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* \ */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) depth--;
  }
  return false;
}
