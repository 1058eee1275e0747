/** A host's embed rule (spec §3 Vendor; GET /v2/vendors/ link_pattern, embed_template, embed_kind). */
export interface EmbedRule {
  link_pattern: string | null;
  embed_template: string | null;
  embed_kind: 'iframe' | 'video';
}

export interface Player {
  kind: 'iframe' | 'video';
  src: string;
}

/** The server writes patterns as Python regular expressions; named groups are the only difference we meet. */
export function toJavaScriptPattern(pattern: string): RegExp | null {
  try {
    return new RegExp(pattern.replace(/\(\?P</g, '(?<').replace(/\(\?P=(\w+)\)/g, '\\k<$1>'));
  } catch {
    return null;
  }
}

/**
 * The player address of a tour: the host's template with `{link}` and the pattern's named groups
 * filled in from the link. Without a usable rule the link itself is embedded (custom hosts), and
 * only http(s) addresses ever reach the iframe.
 */
export function playerFor(link: string, rule: EmbedRule | null): Player | null {
  const trimmed = link.trim();
  const fallback = isWebAddress(trimmed) ? { kind: 'iframe' as const, src: trimmed } : null;
  if (!rule?.embed_template || !rule.link_pattern) return fallback;
  const match = toJavaScriptPattern(rule.link_pattern)?.exec(trimmed);
  if (!match) return fallback;
  const groups: Record<string, string> = { ...match.groups, link: trimmed };
  const src = rule.embed_template.replace(/\{(\w+)\}/g, (_whole, name: string) => groups[name] ?? '');
  return isWebAddress(src) ? { kind: rule.embed_kind, src } : fallback;
}

function isWebAddress(value: string): boolean {
  try {
    const url = new URL(value);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}
