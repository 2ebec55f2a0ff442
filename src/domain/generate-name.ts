// metadata.generateName -> name, as apiserver/pkg/storage/names/generate.go does it.
const ALPHABET = 'bcdfghjklmnpqrstvwxz2456789';
const MAX_NAME_LENGTH = 63;
const RANDOM_LENGTH = 5;
const MAX_PREFIX_LENGTH = MAX_NAME_LENGTH - RANDOM_LENGTH;

export function generateName(prefix: string, random: () => number): string {
  let suffix = '';
  for (let i = 0; i < RANDOM_LENGTH; i++) suffix += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return prefix.slice(0, MAX_PREFIX_LENGTH) + suffix;
}

/** kube-apiserver retries a create whose generated name collided this many times. */
export const GENERATE_NAME_ATTEMPTS = 8;
