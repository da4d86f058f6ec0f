import { type Actor, actorFieldsOf } from './actor';

describe(actorFieldsOf.name, () => {
  it.each<[Actor, unknown]>([
    [
      { type: 'operator', operatorId: 'opr_1', name: 'Ada' },
      { type: 'operator', operator_id: 'opr_1', name: 'Ada' },
    ],
    [
      { type: 'key', keyId: 'key_1' },
      { type: 'key', key_id: 'key_1' },
    ],
    [
      { type: 'cli', user: 'grace' },
      { type: 'cli', user: 'grace' },
    ],
    [{ type: 'bootstrap' }, { type: 'bootstrap' }],
    [{ type: 'system' }, { type: 'system' }],
  ])('names %j as the audit trail shows it', (actor, fields) => {
    expect(actorFieldsOf(actor)).toEqual(fields);
  });
});
