/** What the client reads from the access token's claims (spec §4: admin and creator identity come from them). */
export interface TokenClaims {
  sub?: string;
  is_admin?: boolean;
  roles?: string[];
  creator_id?: number | null;
}

export type UserRole = 'guest' | 'user' | 'creator' | 'admin';

function decodeBase64Url(segment: string): string {
  const base64 = segment.replace(/-/g, '+').replace(/_/g, '/');
  const padded = base64.padEnd(base64.length + ((4 - (base64.length % 4)) % 4), '=');
  const binary = atob(padded);
  const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
  return new TextDecoder().decode(bytes);
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Decode the payload of a JWT without verifying it: the server verifies every call, the client only
 * needs the claims to decide what to show. A malformed token reads as no claims.
 */
export function decodeTokenClaims(token: string): TokenClaims | null {
  const payload = token.split('.')[1];
  if (!payload) return null;
  try {
    const parsed: unknown = JSON.parse(decodeBase64Url(payload));
    if (!isRecord(parsed)) return null;
    return {
      sub: typeof parsed.sub === 'string' ? parsed.sub : undefined,
      is_admin: parsed.is_admin === true,
      roles: Array.isArray(parsed.roles) ? parsed.roles.filter((role): role is string => typeof role === 'string') : [],
      creator_id: typeof parsed.creator_id === 'number' ? parsed.creator_id : null,
    };
  } catch {
    return null;
  }
}

export function roleFromClaims(claims: TokenClaims | null): UserRole {
  if (claims === null) return 'guest';
  if (claims.is_admin) return 'admin';
  const isCreator = claims.creator_id != null || (claims.roles ?? []).some((role) => role.toLowerCase() === 'creator');
  return isCreator ? 'creator' : 'user';
}
