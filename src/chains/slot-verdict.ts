import type { SlotVerdict } from './port.ts';

/** Whether a first endpoint's verdict needs a second endpoint's before anyone acts on it. */
export function needsSecondOpinion(v: SlotVerdict): boolean {
  return v.state === 'dead' || v.state === 'unexplained';
}

/**
 * The verdict of a corroborated judgement (RpcEndpoints.corroborate with needsSecondOpinion): when
 * the second endpoint could not answer, a verdict that needed it is not acted on (`open`).
 */
export function corroboratedVerdict(result: {
  answers: SlotVerdict[];
  unconfirmed: Error | null;
}): SlotVerdict {
  const verdict = combineVerdicts(result.answers);
  if (result.unconfirmed && needsSecondOpinion(verdict)) {
    return {
      state: 'open',
      detail: `${describeVerdict(verdict)}, not confirmed: a second endpoint did not answer (${result.unconfirmed.message})`,
    };
  }
  return verdict;
}

/**
 * One verdict from the views of several endpoints: any endpoint that sees a transaction of the
 * payout makes it `landed`; `dead` and `unexplained` need every endpoint to agree; any other mix
 * (one node lags, the other does not) is `open`: not proven either way yet, so nothing new is signed
 * and the question is asked again on the next pass.
 */
export function combineVerdicts(views: SlotVerdict[]): SlotVerdict {
  const landed = views.find((v) => v.state === 'landed');
  if (landed) return landed;
  const first = views[0];
  if (!first) return { state: 'open', detail: 'no endpoint answered' };
  if (first.state !== 'open' && views.every((v) => v.state === first.state)) return first;
  return {
    state: 'open',
    detail: `endpoints disagree: ${views.map(describeVerdict).join(' / ')}`,
  };
}

/** A verdict in words, for logs and listings. */
export function describeVerdict(v: SlotVerdict): string {
  switch (v.state) {
    case 'landed':
      return `landed (${v.txHash})`;
    case 'dead':
      return `dead: ${v.proof}`;
    case 'open':
    case 'unexplained':
      return `${v.state}: ${v.detail}`;
  }
}
