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
}

/**
 * An image that asks for its file only near the viewport: the IntersectionObserver holds back the
 * `src`, and `loading="lazy"` covers browsers that ignore the observer's margin.
 */
export function LazyImage({ src, alt, fallback, className }: LazyImageProps) {
  const holder = useRef<HTMLDivElement>(null);
  const [near, setNear] = useState(() => typeof IntersectionObserver === 'undefined');
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
          loading="lazy"
          decoding="async"
          className={classes.image}
          data-loaded={loaded || undefined}
          onLoad={() => setLoaded(true)}
          onError={() => setFailed(true)}
        />
      ) : null}
      {!showImage && fallback}
    </div>
  );
}
