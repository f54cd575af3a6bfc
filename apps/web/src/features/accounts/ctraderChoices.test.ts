import { describe, expect, it } from 'vitest';
import { parseCTraderAccounts } from './ctraderChoices';

describe('parseCTraderAccounts', () => {
  it('reads the list the OAuth callback sends, with broker or brokerName', () => {
    const raw = JSON.stringify([
      {
        accountId: 1234567,
        accountNumber: 5551234,
        brokerName: 'Pepperstone',
        currency: 'USD',
        balance: 1520.5,
        isLive: false,
      },
      { accountId: '7654321', accountNumber: null, broker: 'IC Markets', currency: 'EUR', balance: 980 },
    ]);
    expect(parseCTraderAccounts(raw)).toEqual([
      {
        accountId: 1234567,
        accountNumber: '5551234',
        broker: 'Pepperstone',
        currency: 'USD',
        balance: 1520.5,
        isLive: false,
      },
      {
        accountId: '7654321',
        accountNumber: null,
        broker: 'IC Markets',
        currency: 'EUR',
        balance: 980,
        isLive: null,
      },
    ]);
  });

  it.each([null, '', 'not-json', '{"accountId":1}', '42', 'null', '"[]"', '[]'])(
    'gives no accounts for %j',
    (raw) => {
      expect(parseCTraderAccounts(raw)).toEqual([]);
    },
  );

  it('reads a balance sent as a decimal string instead of showing it as unknown', () => {
    const raw = JSON.stringify([
      { accountId: 1, accountNumber: 2, brokerName: 'B', currency: 'USD', balance: '1520.50' },
      { accountId: 3, balance: ' 980 ' },
      { accountId: 4, balance: '1e9' },
    ]);
    expect(parseCTraderAccounts(raw).map((c) => c.balance)).toEqual([1520.5, 980, null]);
  });

  it('leaves out entries without a usable account id, keeps the rest', () => {
    const raw = JSON.stringify([
      null,
      'x',
      [1],
      { accountId: -3 },
      { accountId: 1.5 },
      { accountId: 'abc' },
      { brokerName: 'No id' },
      { accountId: 99, balance: 'lots', currency: 7 },
    ]);
    expect(parseCTraderAccounts(raw)).toEqual([
      { accountId: 99, accountNumber: null, broker: '', currency: '7', balance: null, isLive: null },
    ]);
  });
});
