/**
 * `structuredClone` for the plain data the world copies at every storage call (settings, alarms, sync items): Node's
 * own `structuredClone` serializes through a message port and cost the campaign about a seventh of its time (the
 * 2,000-address items of the `sync` family, copied at every settings read). {@link plainClone} copies plain data —
 * primitives, arrays, and objects whose prototype is `Object.prototype` or null — with `structuredClone`'s result
 * (own enumerable string keys in order, each read once, symbol keys left out; holes kept; shared and cyclic references kept; a
 * null-prototype object comes back as a plain object), and hands any value holding anything else (a Date, a Map, a
 * class instance, a function, a symbol) to `structuredClone` itself, which copies it or throws its
 * `DataCloneError`. One difference, which no data of the world has: an array's own properties beside its indices are
 * not copied.
 */

/** Thrown inside {@link plainClone} when the value holds something it does not copy itself. */
const NOT_PLAIN = Symbol('not plain');

function copy(v: unknown, copies: Map<object, unknown>): unknown {
  if (v === null) return v;
  const type = typeof v;
  if (type === 'symbol' || type === 'function') throw NOT_PLAIN;
  if (type !== 'object') return v;
  const o = v as object;
  const done = copies.get(o);
  if (done !== undefined) return done;
  const proto = Object.getPrototypeOf(o);
  if (proto === Array.prototype) {
    const a = o as unknown[];
    const out: unknown[] = new Array(a.length);
    copies.set(o, out);
    for (let i = 0; i < a.length; i++) {
      if (!(i in a)) continue;
      const x = a[i];
      out[i] = typeof x === 'string' || typeof x === 'number' || typeof x === 'boolean' ? x : copy(x, copies);
    }
    return out;
  }
  if (proto !== Object.prototype && proto !== null) throw NOT_PLAIN;
  const out: Record<string, unknown> = {};
  copies.set(o, out);
  for (const k of Object.keys(o)) out[k] = copy((o as Record<string, unknown>)[k], copies);
  return out;
}

/** A deep copy of `value`, as `structuredClone` makes it (see the module's docstring); throws what it throws. */
export function plainClone<T>(value: T): T {
  try {
    return copy(value, new Map()) as T;
  } catch (err) {
    if (err === NOT_PLAIN) return structuredClone(value);
    throw err;
  }
}
