// Types for cluster-key-slot (a dependency of ioredis, shipped without its own declarations).
declare module 'cluster-key-slot' {
  /** Redis Cluster slot (0..16383) of a key, honouring `{hash tags}`. */
  export default function calculateSlot(key: string | Buffer): number;
}
