import { Container, Group, Stack, Tabs, Text, Title } from '@mantine/core';
import type { Icon } from '@tabler/icons-react';
import type { ReactNode, Ref } from 'react';
import { useSearchParams } from 'react-router';

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

interface TabbedPageProps<Tab extends string> {
  testId: string;
  icon: Icon;
  title: string;
  description: string;
  /** Keeps the icon and a long title on one line. */
  headingNoWrap?: boolean;
  /** Above the heading, e.g. a link back. */
  before?: ReactNode;
  tabs: readonly Tab[];
  tab: Tab;
  onChange: (next: string | null) => void;
  tabsLabel: string;
  tabLabel: (tab: Tab) => string;
  tabTestId: (tab: Tab) => string;
  tabListRef?: Ref<HTMLDivElement>;
  /** The Tabs.Panel of each tab. */
  children: ReactNode;
}

/** An admin page of tabs (Classifications, Users): heading, description, the tab strip and its panels. */
export function TabbedPage<Tab extends string>(props: TabbedPageProps<Tab>) {
  const { icon: PageIcon } = props;
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
        <Tabs value={props.tab} onChange={props.onChange} keepMounted={false} classNames={{ list: classes.tabList, tab: classes.tab }}>
          <Tabs.List aria-label={props.tabsLabel} ref={props.tabListRef}>
            {props.tabs.map((key) => (
              <Tabs.Tab key={key} value={key} data-testid={props.tabTestId(key)}>
                {props.tabLabel(key)}
              </Tabs.Tab>
            ))}
          </Tabs.List>
          {props.children}
        </Tabs>
      </Stack>
    </Container>
  );
}
