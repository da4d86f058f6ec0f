import { firstOfEachEndpoint } from './sql-webhook-delivery-queue';

describe('firstOfEachEndpoint (what a webhook claim takes from its candidates)', () => {
  const candidates = [
    { id: 'm1', endpointId: 'slow' },
    { id: 'm2', endpointId: 'slow' },
    { id: 'm3', endpointId: 'fast' },
    { id: 'm4', endpointId: 'slow' },
    { id: 'm5', endpointId: 'other' },
    { id: 'm6', endpointId: 'fast' },
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
