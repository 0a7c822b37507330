// A form submit with a loading flag; errors are already shown by the HTTP client.
import { useState } from 'react';

export function useSubmit<T>(action: (values: T) => Promise<void>) {
  const [loading, setLoading] = useState(false);
  const run = async (values: T) => {
    setLoading(true);
    try {
      await action(values);
    } catch {
      // Shown by the HTTP client.
    } finally {
      setLoading(false);
    }
  };
  return { loading, run };
}
