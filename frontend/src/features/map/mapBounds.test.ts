import { boundsCenter, roundBounds, serverBounds } from './mapBounds';

describe('serverBounds', () => {
  it('keeps an ordinary view as it is', () => {
    expect(serverBounds(2.1, 48.7, 2.6, 49)).toEqual([2.1, 48.7, 2.6, 49]);
  });

  it('wraps longitudes reported past ±180 after panning around the globe', () => {
    expect(serverBounds(190, 10, 200, 20)).toEqual([-170, 10, -160, 20]);
    expect(serverBounds(-370, 10, -360, 20)).toEqual([-10, 10, 0, 20]);
  });

  it('gives west > east for a view across the antimeridian', () => {
    const [west, , east] = serverBounds(170, -20, 190, -10);
    expect(west).toBe(170);
    expect(east).toBe(-170);
  });

  it('asks for the whole world when more than all of it is visible', () => {
    expect(serverBounds(-400, -88, 300, 88)).toEqual([-180, -88, 180, 88]);
  });

  it('keeps latitudes within ±90', () => {
    expect(serverBounds(0, -95, 10, 95)).toEqual([0, -90, 10, 90]);
  });
});

describe('bounds helpers', () => {
  it('rounds to four decimals', () => {
    expect(roundBounds([2.123456, 48.987654, 3, 49])).toEqual([2.1235, 48.9877, 3, 49]);
  });

  it('finds the centre, also across the antimeridian', () => {
    expect(boundsCenter([0, 0, 10, 20])).toEqual([5, 10]);
    expect(boundsCenter([170, 0, -170, 10])).toEqual([180, 5]);
  });
});
