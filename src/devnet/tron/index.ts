export type { DeployTrc20Options, Genesis, GenesisAccount, View } from './chain.ts';
export type { FailMode, FailRule } from './faults.ts';
export type { FakeTronNode, FakeTronNodeOptions, FakeTronState } from './server.ts';
export { startFakeTronNode } from './server.ts';
