/**
 * Spec §2 "a provider-specific notice with a video link": where the notice sends the user to watch
 * how a tour is shared, and its picture taken, on a host. The hosts publish no stable tutorial
 * address we could keep current, so the link is a video search on YouTube for that host's own
 * guides (every host in the dictionary has them), opened in a new tab.
 */
export function providerVideoLink(hostName: string): string {
  const query = `${hostName.trim()} how to share a virtual tour link`;
  return `https://www.youtube.com/results?search_query=${encodeURIComponent(query)}`;
}
