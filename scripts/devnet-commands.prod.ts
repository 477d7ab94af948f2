/**
 * What `kassa sandbox` and `kassa demo` are in the production build (scripts/build.ts puts this
 * module in place of src/cli/sandbox.ts and src/cli/demo.ts): the local devnets (anvil launcher,
 * fake TRON and Sui nodes, test tokens) are for trying Kassa from a checkout and never ship in
 * dist/. Both commands say so and exit with the usage code.
 */
import { UsageError } from '../src/cli/output.ts';

async function runsFromACheckout(): Promise<never> {
  throw new UsageError(
    'kassa sandbox and kassa demo run local devnets, which are not part of the production build. ' +
      'Try them from a checkout of Kassa: npm install && npm start, then npx kassa demo.',
  );
}

export const sandboxCommand = runsFromACheckout;
export const demoCommand = runsFromACheckout;
