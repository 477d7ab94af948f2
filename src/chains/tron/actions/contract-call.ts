import { addressWord } from '../address.ts';
import type { TronContext } from '../context.ts';
import { TronNodeError } from '../http.ts';
import { fromHexText, uint256 } from '../text.ts';
import { num } from '../wire.ts';

/** A TRC-20 call the contract would revert, with its reason. */
export class TransferReverts extends Error {}

/** A read-only contract call; throws TransferReverts when it reverts, TronNodeError when the node refuses it. */
export async function constantCall(
  ctx: TronContext,
  args: { owner: string; contract: string; selector: string; parameter: string },
): Promise<{ energy: bigint; output: string }> {
  const json = await ctx.http.call('/wallet/triggerconstantcontract', {
    owner_address: args.owner,
    contract_address: args.contract,
    function_selector: args.selector,
    parameter: args.parameter,
  });
  if (json?.result?.result !== true) {
    throw new TronNodeError(
      `${args.selector}: ${json?.result?.code ?? 'refused'} ${fromHexText(json?.result?.message)}`.trim(),
      200,
    );
  }
  if (json.result.message !== undefined || json.transaction?.ret?.[0]?.ret === 'FAILED') {
    throw new TransferReverts(fromHexText(json.result.message) || 'reverted');
  }
  return { energy: BigInt(num(json.energy_used)), output: String(json.constant_result?.[0] ?? '') };
}

/**
 * Energy a `transfer(to, amount)` from `owner` needs now: estimateenergy, else (a node with it off)
 * the constant call's energy_used. Throws TransferReverts when the transfer would revert.
 */
export async function transferEnergy(
  ctx: TronContext,
  args: { owner: string; contract: string; to: string; amount: bigint },
): Promise<bigint> {
  const parameter = addressWord(args.to) + uint256(args.amount);
  try {
    const json = await ctx.http.call('/wallet/estimateenergy', {
      owner_address: args.owner,
      contract_address: args.contract,
      function_selector: 'transfer(address,uint256)',
      parameter,
    });
    if (json?.result?.result === true) return BigInt(num(json.energy_required));
    if (json?.result?.code === 'CONTRACT_EXE_ERROR')
      throw new TransferReverts(fromHexText(json.result.message));
  } catch (error) {
    if (!(error instanceof TronNodeError)) throw error;
    // estimateenergy is off on this node (vm.estimateEnergy=false): fall back to the constant call
  }
  const call = {
    owner: args.owner,
    contract: args.contract,
    selector: 'transfer(address,uint256)',
    parameter,
  };
  return (await constantCall(ctx, call)).energy;
}
