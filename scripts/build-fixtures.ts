/**
 * Recompiles the Solidity test tokens in src/devnet/evm/contracts/ with solc-js, offline, and writes one
 * JSON artifact (abi + bytecode) per contract beside the sources.
 *
 *   npx tsx scripts/build-fixtures.ts           write the JSON files
 *   npx tsx scripts/build-fixtures.ts --check   exit 1 if a committed JSON differs from a fresh compile
 *
 * Runtime code imports the committed JSON and never loads solc (9 MB, ~1 s to start).
 */
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import solc from 'solc';

/** Where the .sol sources and their compiled JSON live. */
export const CONTRACTS_DIR = resolve(dirname(fileURLToPath(import.meta.url)), '../src/devnet/evm/contracts');

/** The deployable contracts; each gets `<name>.json`. Abstract bases are compiled but not written. */
export const ARTIFACT_NAMES = ['TestToken', 'NoReturnToken'] as const;
export type ArtifactName = (typeof ARTIFACT_NAMES)[number];

/** The compiler settings every artifact is built with; recorded in the JSON so a reader knows. */
export const COMPILER_SETTINGS = {
  optimizer: { enabled: true, runs: 200 },
  evmVersion: 'cancun',
} as const;

const EXPECTED_SOLC = '0.8.37+commit.f401782d';

export interface Artifact {
  contractName: ArtifactName;
  sourceName: string;
  compiler: { version: string } & typeof COMPILER_SETTINGS;
  abi: unknown[];
  bytecode: `0x${string}`;
}

interface SolcOutput {
  errors?: { severity: 'error' | 'warning' | 'info'; formattedMessage: string }[];
  contracts?: Record<string, Record<string, { abi: unknown[]; evm: { bytecode: { object: string } } }>>;
}

/**
 * Compiles every .sol file in {@link CONTRACTS_DIR} with the pinned solc-js and returns the artifacts of
 * {@link ARTIFACT_NAMES}, in that order. Deterministic: same sources and compiler give the same bytes.
 * Throws if solc is not 0.8.37, if compilation reports an error or a warning, or if a contract is missing.
 */
export function compileContracts(): Artifact[] {
  const version: string = solc.version();
  if (!version.startsWith(EXPECTED_SOLC)) {
    throw new Error(`solc ${EXPECTED_SOLC} expected, found ${version}`);
  }
  const sources: Record<string, { content: string }> = {};
  for (const file of readdirSync(CONTRACTS_DIR).filter((f) => f.endsWith('.sol'))) {
    sources[file] = { content: readFileSync(join(CONTRACTS_DIR, file), 'utf8') };
  }
  const input = {
    language: 'Solidity',
    sources,
    settings: {
      ...COMPILER_SETTINGS,
      outputSelection: { '*': { '*': ['abi', 'evm.bytecode.object'] } },
    },
  };
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const problems = (output.errors ?? []).filter((e) => e.severity !== 'info');
  if (problems.length > 0) {
    throw new Error(`solc reported:\n${problems.map((e) => e.formattedMessage).join('\n')}`);
  }
  return ARTIFACT_NAMES.map((name) => {
    const sourceName = `${name}.sol`;
    const compiled = output.contracts?.[sourceName]?.[name];
    if (!compiled) throw new Error(`${sourceName} did not produce contract ${name}`);
    return {
      contractName: name,
      sourceName,
      compiler: { version: EXPECTED_SOLC, ...COMPILER_SETTINGS },
      abi: compiled.abi,
      bytecode: `0x${compiled.evm.bytecode.object}`,
    };
  });
}

/** The exact text written to `<name>.json`: two-space JSON and a final newline. */
export function renderArtifact(artifact: Artifact): string {
  return `${JSON.stringify(artifact, null, 2)}\n`;
}

/** Path of the committed JSON for one contract. */
export function artifactPath(name: ArtifactName): string {
  return join(CONTRACTS_DIR, `${name}.json`);
}

function main(argv: string[]): number {
  const check = argv.includes('--check');
  const started = performance.now();
  const artifacts = compileContracts();
  let stale = 0;
  for (const artifact of artifacts) {
    const path = artifactPath(artifact.contractName);
    const text = renderArtifact(artifact);
    let current: string | undefined;
    try {
      current = readFileSync(path, 'utf8');
    } catch {
      current = undefined;
    }
    if (current === text) continue;
    stale += 1;
    if (check) {
      console.error(`${path} is stale; run: npx tsx scripts/build-fixtures.ts`);
    } else {
      writeFileSync(path, text);
      console.log(`wrote ${path} (${(artifact.bytecode.length - 2) / 2} bytes of bytecode)`);
    }
  }
  const ms = Math.round(performance.now() - started);
  console.log(`${artifacts.length} contracts compiled in ${ms} ms, ${stale} ${check ? 'stale' : 'updated'}`);
  return check && stale > 0 ? 1 : 0;
}

if (process.argv[1] && import.meta.url === pathToFileURL(resolve(process.argv[1])).href) {
  process.exitCode = main(process.argv.slice(2));
}
