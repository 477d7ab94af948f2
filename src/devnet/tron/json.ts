/**
 * JSON as java-tron prints it. Renderers put every protobuf int64 into the tree as a bigint; this
 * writer prints it as a bare JSON number, or as a string when the client asked for
 * `int64_as_string=true` (java-tron#6699, honoured on GET requests only). Money therefore never
 * passes through a JS `number` on its way out, and `undefined` members are dropped, which is how
 * the renderers omit proto3 default values.
 */
export function stringifyTron(value: unknown, int64AsString = false): string {
  return write(value, int64AsString) ?? 'null';
}

function write(value: unknown, int64AsString: boolean): string | undefined {
  if (value === undefined || typeof value === 'function' || typeof value === 'symbol') return undefined;
  if (typeof value === 'bigint') return int64AsString ? `"${value}"` : value.toString();
  if (value === null || typeof value !== 'object') return JSON.stringify(value);
  if (Array.isArray(value)) return `[${value.map((item) => write(item, int64AsString) ?? 'null').join(',')}]`;
  const members: string[] = [];
  for (const [key, member] of Object.entries(value)) {
    const text = write(member, int64AsString);
    if (text !== undefined) members.push(`${JSON.stringify(key)}:${text}`);
  }
  return `{${members.join(',')}}`;
}

/** `n` as the bigint an int64 field is rendered from, or undefined when zero (proto3 omits defaults). */
export function i64(n: number | bigint): bigint | undefined {
  const value = BigInt(n);
  return value === 0n ? undefined : value;
}
