describe('what waits for the first screen', () => {
  beforeEach(() => vi.resetModules()); // the module keeps whether the first screen is drawn

  it('starts once the first screen is drawn, not before', async () => {
    const timing = await import('./afterFirstScreen');
    let started = false;
    void timing.afterFirstScreen().then(() => (started = true));
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(started).toBe(false);

    timing.markFirstScreenDrawn();
    await vi.waitFor(() => expect(started).toBe(true));
    expect(timing.isFirstScreenDrawn()).toBe(true);
  });

  it('starts after five seconds at the latest (a preview that never arrives)', async () => {
    vi.useFakeTimers();
    try {
      const timing = await import('./afterFirstScreen');
      let started = false;
      void timing.afterFirstScreen().then(() => (started = true));
      await vi.advanceTimersByTimeAsync(4900);
      expect(started).toBe(false);
      await vi.advanceTimersByTimeAsync(100);
      expect(started).toBe(true);
    } finally {
      vi.useRealTimers();
    }
  });
});
