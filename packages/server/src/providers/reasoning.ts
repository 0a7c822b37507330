// Reasoning effort ⇄ thinking budgets: OpenAI's protocols name an effort, Anthropic and Gemini take a
// token budget. One scale for every conversion, both ways (Anthropic's smallest budget is 1024).
export type Effort = 'minimal' | 'low' | 'medium' | 'high';

const BUDGETS: Record<Effort, number> = { minimal: 1024, low: 2048, medium: 8192, high: 24576 };

/** The thinking budget an effort asks for; undefined for none, or a word we do not know. */
export function budgetOfEffort(effort: unknown): number | undefined {
  return typeof effort === 'string' && effort in BUDGETS ? BUDGETS[effort as Effort] : undefined;
}

/** The effort a positive budget comes closest to (the buckets meet halfway between the budgets above).
 *  Never 'minimal': only some OpenAI models take it, and a small budget reads as low everywhere. */
export function effortOfBudget(budget: unknown): Exclude<Effort, 'minimal'> | undefined {
  if (typeof budget !== 'number' || !(budget > 0)) return undefined;
  return budget <= 4096 ? 'low' : budget <= 16384 ? 'medium' : 'high';
}
