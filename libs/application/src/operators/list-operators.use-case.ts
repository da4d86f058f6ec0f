import { Injectable } from '@nestjs/common';
import { type Operator, OperatorRepository } from '@svc/domain';

/** Every operator (CONTRACT 21), never a token or its digest. */
@Injectable()
export class ListOperators {
  constructor(private readonly operators: OperatorRepository) {}

  execute(): Promise<Operator[]> {
    return this.operators.list();
  }
}
