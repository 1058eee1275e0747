import { Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import { type ReactNode, useEffect, useRef } from 'react';
import { useSearchParams } from 'react-router';

import { useSession } from '../auth/session';
import { PageShell } from './PageShell';
import classes from './TabbedPage.module.css';

/**
 * The page's tab, kept in the link (`?tab=…`) so a link can open any tab and Back returns to it;
 * the first tab is the page's own address, without `tab`.
 */
export function useTabInLink<Tab extends string>(tabs: readonly Tab[], fallback: Tab): [Tab, (next: string | null) => void] {
  const [params, setParams] = useSearchParams();
  const isTab = (value: string | null): value is Tab => (tabs as readonly (string | null)[]).includes(value);
  const requested = params.get('tab');
  const tab = isTab(requested) ? requested : fallback;
  const choose = (next: string | null) => setParams(next && next !== fallback && isTab(next) ? { tab: next } : {}, { replace: true });
  return [tab, choose];
}

/** A phone scrolls the tab strip sideways: the chosen tab is brought into view (a link may name any). */
function useChosenTabInView(tab: string) {
  const tabList = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      const strip = tabList.current;
      const chosen = strip?.querySelector<HTMLElement>('[aria-selected="true"]');
      if (!strip || !chosen || strip.scrollWidth <= strip.clientWidth) return;
      const left = chosen.getBoundingClientRect().left - strip.getBoundingClientRect().left + strip.scrollLeft;
      if (left < strip.scrollLeft || left + chosen.offsetWidth > strip.scrollLeft + strip.clientWidth) {
        strip.scrollLeft = Math.max(0, left + chosen.offsetWidth - strip.clientWidth + 16);
      }
    });
    return () => cancelAnimationFrame(frame);
  }, [tab]);
  return tabList;
}

interface TabbedPageProps<Tab extends string> {
  testId: string;
  icon: Icon;
  title: string;
  description: string;
  /** Keeps the icon and a long title on one line. */
  headingNoWrap?: boolean;
  /** Above the heading, e.g. a link back. */
  before?: ReactNode;
  /** The tabs in their order; the first is the page's own address (no `?tab=`). */
  tabs: readonly [Tab, ...Tab[]];
  /** What each tab shows; only the chosen one is mounted. */
  panels: Record<Tab, ReactNode>;
  tabsLabel: string;
  tabLabel: (tab: Tab) => string;
  tabTestId: (tab: Tab) => string;
  /** What anyone but an administrator sees instead (the page asks the server nothing for them). */
  adminsOnly: { text: string; testId: string };
}

/**
 * An admin page of tabs (Classifications, Users): heading, description, the tab strip (kept in the
 * link) and its panels; a notice for anyone who is not an administrator.
 */
export function TabbedPage<Tab extends string>(props: TabbedPageProps<Tab>) {
  const { icon: PageIcon, tabs } = props;
  const session = useSession();
  const [tab, choose] = useTabInLink(tabs, tabs[0]);
  const tabList = useChosenTabInView(tab);

  if (session.role !== 'admin') {
    return (
      <div data-testid={props.adminsOnly.testId}>
        <PageShell icon={<PageIcon size={28} />} title={props.title} description={props.adminsOnly.text} />
      </div>
    );
  }
  return (
    <Container size={1312} className={classes.page} data-testid={props.testId}>
      <Stack gap="md">
        {props.before}
        <Stack gap={4}>
          <Group gap="xs" wrap={props.headingNoWrap ? 'nowrap' : undefined}>
            <PageIcon size={26} color="var(--mantine-color-brand-7)" aria-hidden="true" />
            <Title order={1} size="h2">
              {props.title}
            </Title>
          </Group>
          <Text c="dimmed" size="sm" maw={760}>
            {props.description}
          </Text>
        </Stack>
        <Tabs value={tab} onChange={choose} keepMounted={false} classNames={{ list: classes.tabList, tab: classes.tab }}>
          <Tabs.List aria-label={props.tabsLabel} ref={tabList}>
            {tabs.map((key) => (
              <Tabs.Tab key={key} value={key} data-testid={props.tabTestId(key)}>
                {props.tabLabel(key)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {tabs.map((key) => (
            <Tabs.Panel key={key} value={key} pt="md">
              {props.panels[key]}
            </Tabs.Panel>
          ))}
        </Tabs>
      </Stack>
    </Container>
  );
}
