import { Type, type TSchema, type TUnsafe } from '@sinclair/typebox';

// Shared TypeBox building blocks. A parameter's `description` doubles as the rule text of its
// 400 message ("<name> must be <description>"), so write it as a rule.

export function StringEnum<const T extends string>(values: readonly T[], opts: { description?: string; default?: NoInfer<T> } = {}): TUnsafe<T> {
  return Type.Unsafe<T>({ type: 'string', enum: [...values], ...opts });
}

export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
export const DateString = (description = 'a date in the form YYYY-MM-DD') =>
  Type.String({ pattern: DATE_PATTERN, description });

export const Limit = (def: number, max: number) =>
  Type.Integer({ minimum: 1, maximum: max, default: def, description: `an integer from 1 to ${max}` });

export const Order = (def: 'asc' | 'desc') => StringEnum(['asc', 'desc'] as const, { default: def });

export const Cursor = Type.String({ minLength: 1, maxLength: 8192, description: 'a cursor taken from next_url' });

/** Body of an error response (inner object; wrapped in {ok:false,data} by default). */
export const ErrorBody = Type.Object({
  status: Type.String(),
  request_id: Type.String(),
  code: Type.String(),
  error: Type.String(),
  message: Type.String(),
});

export function Envelope(data: TSchema, ok: boolean) {
  return Type.Object({ ok: Type.Literal(ok), data });
}

export const ListBody = <T extends TSchema>(item: T) =>
  Type.Object({
    status: Type.String(),
    request_id: Type.String(),
    count: Type.Integer(),
    results: Type.Array(item),
    next_url: Type.Optional(Type.String()),
  });

export const SingleBody = <T extends TSchema>(item: T) =>
  Type.Object({
    status: Type.String(),
    request_id: Type.String(),
    results: item,
  });
