import type { Db } from '../client.ts';
import { operatorCosts } from '../schema/operator-costs.ts';
import type { OperatorCostKind } from './sweeps.ts';

/** Operator costs per chain, kind and native symbol, summed (in TypeScript: amounts are TEXT). */
export async function sumOperatorCosts(db: Db): Promise<
  {
    chain: string;
    kind: OperatorCostKind;
    symbol: string;
    decimals: number;
    amountBase: bigint;
    count: number;
  }[]
> {
  const out = new Map<
    string,
    {
      chain: string;
      kind: OperatorCostKind;
      symbol: string;
      decimals: number;
      amountBase: bigint;
      count: number;
    }
  >();
  for (const r of db.select().from(operatorCosts).all()) {
    const key = `${r.chain}/${r.kind}`;
    const e = out.get(key) ?? {
      chain: r.chain,
      kind: r.kind,
      symbol: r.symbol,
      decimals: r.decimals,
      amountBase: 0n,
      count: 0,
    };
    e.amountBase += BigInt(r.amountBase);
    e.count++;
    out.set(key, e);
  }
  return [...out.values()].sort((a, b) => (a.chain + a.kind).localeCompare(b.chain + b.kind));
}
