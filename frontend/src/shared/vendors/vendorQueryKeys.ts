/** react-query keys of the hosts a user may choose and asked for, and of the vendor API tokens. */
export const vendorQueryKeys = {
  all: ['vendors', 'mine'] as const,
  /** GET allowed-vendors: the public hosts, then the caller's own custom hosts. */
  allowed: ['vendors', 'mine', 'allowed'] as const,
  /** GET own-vendors: every host the caller asked for, with its status. */
  own: ['vendors', 'mine', 'own'] as const,
  /** GET credentials: the caller's saved 3D-capture vendor tokens, masked. */
  credentials: ['vendors', 'mine', 'credentials'] as const,
};
