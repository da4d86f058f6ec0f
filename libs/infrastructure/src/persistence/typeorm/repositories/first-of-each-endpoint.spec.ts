import { firstOfEachEndpoint } from './sql-webhook-delivery-queue';

describe('firstOfEachEndpoint (what a webhook claim takes from its candidates)', () => {
  const candidates = [
    { id: 'm1', endpoint_id: 'slow' },
    { id: 'm2', endpoint_id: 'slow' },
    { id: 'm3', endpoint_id: 'fast' },
    { id: 'm4', endpoint_id: 'slow' },
    { id: 'm5', endpoint_id: 'other' },
    { id: 'm6', endpoint_id: 'fast' },
  ];

  it('takes the earliest due of each endpoint, in the order given', () => {
    expect(firstOfEachEndpoint(candidates, 10)).toEqual(['m1', 'm3', 'm5']);
  });

  it('takes at most `limit`', () => {
    expect(firstOfEachEndpoint(candidates, 2)).toEqual(['m1', 'm3']);
    expect(firstOfEachEndpoint(candidates, 0)).toEqual([]);
    expect(firstOfEachEndpoint([], 5)).toEqual([]);
  });
});
