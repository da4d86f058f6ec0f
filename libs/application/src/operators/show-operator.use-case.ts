import { Injectable } from '@nestjs/common';
import { type Operator, OperatorNotFoundError, OperatorRepository } from '@svc/domain';

/** One operator (CONTRACT 21); OPERATOR_NOT_FOUND when there is none. */
@Injectable()
export class ShowOperator {
  constructor(private readonly operators: OperatorRepository) {}

  async execute(operatorId: string): Promise<Operator> {
    const operator = await this.operators.findById(operatorId);
    if (!operator) throw new OperatorNotFoundError();
    return operator;
  }
}
