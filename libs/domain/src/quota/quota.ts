import { type BillingPeriod } from './billing-period';

/**
 * A key's monthly allowance in one period. `monthlyLimit` null means
 * unlimited: `remaining` is then null too, and the quota is never exhausted.
 */
export class Quota {
  constructor(
    readonly monthlyLimit: number | null,
    readonly used: number,
    readonly period: BillingPeriod,
  ) {}

  get remaining(): number | null {
    return this.monthlyLimit === null ? null : Math.max(0, this.monthlyLimit - this.used);
  }

  get isExhausted(): boolean {
    return this.monthlyLimit !== null && this.used >= this.monthlyLimit;
  }

  /** Units an event costs: each `inference` consumes exactly one; nothing else consumes. */
  static costOf(eventType: string): number {
    return eventType === 'inference' ? 1 : 0;
  }
}
