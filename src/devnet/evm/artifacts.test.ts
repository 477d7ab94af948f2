import type { Abi, AbiParameter } from 'viem';
import { describe, expect, it } from 'vitest';
import { noReturnTokenAbi, noReturnTokenArtifact, testTokenAbi, testTokenArtifact } from './artifacts.ts';

/** One line per ABI item, ignoring parameter names: what a call or a log decode depends on. */
function signatures(abi: Abi): string[] {
  const types = (params: readonly AbiParameter[]) =>
    params.map((p) => `${p.type}${'indexed' in p && p.indexed ? ' indexed' : ''}`).join(',');
  return abi
    .map((item) => {
      switch (item.type) {
        case 'function':
          return `function ${item.name}(${types(item.inputs)}) ${item.stateMutability} returns (${types(item.outputs)})`;
        case 'event':
          return `event ${item.name}(${types(item.inputs)})`;
        case 'constructor':
          return `constructor(${types(item.inputs)})`;
        default:
          return item.type;
      }
    })
    .sort();
}

describe('typed token ABIs', () => {
  it('match the ABI compiled into the committed TestToken JSON', () => {
    expect(signatures(testTokenAbi)).toEqual(signatures(testTokenArtifact.abi));
  });

  it('match the ABI compiled into the committed NoReturnToken JSON, whose transfers return nothing', () => {
    expect(signatures(noReturnTokenAbi)).toEqual(signatures(noReturnTokenArtifact.abi));
    expect(signatures(noReturnTokenAbi)).toContain(
      'function transfer(address,uint256) nonpayable returns ()',
    );
  });
});
