import ReactMarkdown, { type Components } from 'react-markdown';
import remarkGfm from 'remark-gfm';

/** `[C1]` citations become links to `#cite-C1`, which the `a` renderer resolves. Pure. */
export function linkCitations(text: string): string {
  return text.replace(/\[(C\d{1,3})\](?!\()/g, '[$1](#cite-$1)');
}

interface Props {
  text: string;
  /** Called when a citation link is followed; the href's ref (`C1`). */
  onCite?: (ref: string) => void;
  citeLabel?: (ref: string) => string | undefined;
}

/**
 * Markdown with tables (GFM). Raw HTML in the text is not rendered (react-markdown's
 * default) and link targets pass its URL sanitiser, so a document cannot inject markup.
 */
export function Markdown({ text, onCite, citeLabel }: Props) {
  const components: Components = {
    a({ href, children }) {
      if (href?.startsWith('#cite-')) {
        const ref = href.slice('#cite-'.length);
        const label = citeLabel?.(ref);
        return (
          <a
            href={href}
            className="cite"
            title={label ? `Source: ${label}` : undefined}
            aria-label={label ? `Source ${ref}: ${label}` : `Source ${ref}`}
            onClick={(event) => {
              event.preventDefault();
              onCite?.(ref);
            }}
          >
            {children}
          </a>
        );
      }
      return (
        <a href={href} target="_blank" rel="noopener noreferrer">
          {children}
        </a>
      );
    },
    table({ children }) {
      return (
        <div className="table-wrap">
          <table>{children}</table>
        </div>
      );
    },
  };
  return (
    <div className="markdown">
      <ReactMarkdown remarkPlugins={[remarkGfm]} components={components}>
        {linkCitations(text)}
      </ReactMarkdown>
    </div>
  );
}
