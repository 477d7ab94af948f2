import type { BalanceView } from '../services/manage-ledger.ts';
import { Td, Time } from './ui.tsx';
import type { View } from './view.ts';

/**
 * Merchants' balances from the ledger: available, frozen and total per chain and token. With
 * `names` (the money page), each row starts with its merchant, linked to that merchant's ledger,
 * and ends with when it last moved; without, it is one merchant's (its ledger page).
 */
export function BalancesTable(props: {
  v: View;
  balances: BalanceView[];
  names?: Map<string, string | null>;
}) {
  const { v, names } = props;
  const t = v.t.money;
  return (
    <div class="scroll">
      <table class="stack" id={names ? 'all-balances' : 'merchant-balances'}>
        <thead>
          <tr>
            {names ? <th>{t.merchant}</th> : null}
            <th>{v.t.overview.chain}</th>
            <th>{v.t.overview.token}</th>
            <th class="num">{t.available}</th>
            <th class="num">{t.frozen}</th>
            <th class="num">{t.total}</th>
            {names ? <th>{t.updated}</th> : null}
          </tr>
        </thead>
        <tbody>
          {props.balances.map((b) => (
            <tr data-merchant={b.merchantId} data-token={`${b.chain}:${b.symbol}`}>
              {names ? (
                <Td label={t.merchant}>
                  <a href={`${v.base}/money/merchants/${b.merchantId}`}>
                    {names.get(b.merchantId) ?? b.merchantId}
                  </a>
                  <span class="sub mono">{b.merchantId}</span>
                </Td>
              ) : null}
              <Td label={v.t.overview.chain}>{b.chain}</Td>
              <Td label={v.t.overview.token}>{b.symbol}</Td>
              <Td label={t.available} num>
                {b.available}
              </Td>
              <Td label={t.frozen} num>
                {b.frozen}
              </Td>
              <Td label={t.total} num>
                {b.total}
              </Td>
              {names ? (
                <Td label={t.updated}>
                  <Time ms={Date.parse(b.updatedAt)} />
                </Td>
              ) : null}
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
