/** aws-local-stepfunctions 3 declares Node >= 22; on Node 20 it needs Promise.withResolvers. */
interface Resolvers<T> { promise: Promise<T>; resolve: (value: T) => void; reject: (reason?: unknown) => void }

const P = Promise as unknown as { withResolvers?: <T>() => Resolvers<T> };
P.withResolvers ??= <T>(): Resolvers<T> => {
  let resolve!: (value: T) => void;
  let reject!: (reason?: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
};
