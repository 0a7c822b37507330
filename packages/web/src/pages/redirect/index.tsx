// `/redirect/:path` re-navigates to the given path: the tab bar's "reload" goes through it.
import { useEffect } from 'react';
import { useNavigate, useParams } from 'react-router';

export default function Redirect() {
  const { path = '' } = useParams();
  const navigate = useNavigate();
  useEffect(() => {
    navigate(path.startsWith('/') ? path : `/${path}`, { replace: true });
  }, [navigate, path]);
  return null;
}
