// TEMPORARY scaffolding while the PostgreSQL store is being ported area by area: must be gone (and
// this file deleted) before the branch merges.
// biome-ignore lint/suspicious/noExplicitAny: scaffolding stands in for any Store function
export function notPorted(name: string): any {
  return async () => {
    throw new Error(`${name} is not implemented on PostgreSQL yet`);
  };
}
