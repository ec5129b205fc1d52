export type Environment = 'sandbox' | 'live';

/** The environment a credential belongs to: its `sandbox_` / `live_` prefix, else the default (JWTs, tokens). */
export function environmentOf(credential: string | undefined, fallback: Environment): Environment {
  if (credential?.startsWith('live_')) return 'live';
  if (credential?.startsWith('sandbox_')) return 'sandbox';
  return fallback;
}
