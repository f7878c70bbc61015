/**
 * `true` when every method of C takes exactly the parameters of the same method of I. A class that
 * implements an interface may leave out trailing parameters, optional ones too: a cached store would
 * then drop what a new parameter carries (an audit event, say) without a compile error.
 */
type Parameters<F> = F extends (...args: infer P) => unknown ? Required<P> : never;
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;

export type SameParameters<C, I> = { [K in keyof I]-?: K extends keyof C ? Same<Parameters<C[K]>, Parameters<I[K]>> : false }[keyof I];

/** Compiles only for `true`. */
export type Holds<T extends true> = T;
