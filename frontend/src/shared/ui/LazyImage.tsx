import { useEffect, useRef, useState, type ReactNode } from 'react';

import classes from './LazyImage.module.css';

/** Spec §9: images start loading when they come within 50 px of the viewport. */
export const LAZY_LOAD_MARGIN = '50px';

interface LazyImageProps {
  src: string | null | undefined;
  alt: string;
  /** Shown when there is no picture or it fails to load. */
  fallback: ReactNode;
  className?: string;
  /**
   * In the first screen (the grid's first cards): asked for at once, without waiting for the observer
   * or the fade-in, so the largest paint is not held back; `high` also raises its fetch priority.
   */
  priority?: 'eager' | 'high';
}

/**
 * An image that asks for its file only near the viewport: the IntersectionObserver holds back the
 * `src`, and `loading="lazy"` covers browsers that ignore the observer's margin.
 */
export function LazyImage({ src, alt, fallback, className, priority }: LazyImageProps) {
  const holder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => priority !== undefined || typeof IntersectionObserver === 'undefined');
  const [failed, setFailed] = useState(false);
  const [loaded, setLoaded] = useState(false);

  useEffect(() => {
    if (near || !holder.current) return undefined;
    const observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) {
          setNear(true);
          observer.disconnect();
        }
      },
      { rootMargin: LAZY_LOAD_MARGIN },
    );
    observer.observe(holder.current);
    return () => observer.disconnect();
  }, [near]);

  const showImage = Boolean(src) && !failed;
  return (
    <div ref={holder} className={`${classes.holder} ${className ?? ''}`}>
      {showImage && near ? (
        <img
          src={src ?? undefined}
          alt={alt}
          loading={priority ? 'eager' : 'lazy'}
          decoding={priority ? 'auto' : 'async'}
          fetchPriority={priority === 'high' ? 'high' : undefined}
          className={classes.image}
          data-loaded={loaded || priority !== undefined || undefined}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      ) : null}
      {!showImage && fallback}
    </div>
  );
}
