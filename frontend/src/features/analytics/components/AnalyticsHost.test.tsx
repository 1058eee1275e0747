import { act, screen } from '@testing-library/react';

import { runAppAction } from '../../../shared/actions/appActions';
import { STORAGE_KEYS } from '../../../shared/storage/localStore';
import { stubApi } from '../../../testing/apiStub';
import { renderWithApp } from '../../../testing/render';
import { testAccessToken } from '../../../testing/users';
import { AnalyticsHost } from './AnalyticsHost';

describe('the analytics host', () => {
  it('opens Analytics and Ads Analytics from the menu’s actions, each asking its own calls', async () => {
    localStorage.setItem(STORAGE_KEYS.accessToken, testAccessToken({ sub: '7', creator_id: 3 }));
    const api = stubApi({});
    renderWithApp(<AnalyticsHost />);
    expect(screen.queryByTestId('analytics-dialog-tours')).not.toBeInTheDocument();

    act(() => void runAppAction('adsAnalytics'));
    expect(await screen.findByRole('dialog', { name: 'Ads Analytics' })).toBeInTheDocument();
    expect(await screen.findByTestId('analytics-screen-ads')).toBeInTheDocument();
    await screen.findByTestId('analytics-error'); // the stub answers 404: the screen says so
    expect(api.calls.some((call) => call.path === '/v2/creators/ads-analytic-totals')).toBe(true);

    act(() => void runAppAction('analytics'));
    expect(await screen.findByTestId('analytics-screen-tours')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Analytics' })).toBeInTheDocument();
  });
});
