import { providerVideoLink } from './providerVideo';

it('links to videos about sharing a tour on the host', () => {
  const link = new URL(providerVideoLink(' Cupix '));
  expect(link.origin).toBe('https://www.youtube.com');
  expect(link.searchParams.get('search_query')).toBe('Cupix how to share a virtual tour link');
});
