// The price block of the model's type (pricing.ts quotaKeyOf): Midjourney corps price task actions,
// every other corp the block of the type; multimodal search pricing follows the corp code.
import { Alert } from '@arco-design/web-react';
import { usePageLocale } from '../../../locale';
import locale from '../locale';
import { quotaKeyOf, searchStyle } from '../../../components/price/pricing';
import { ImagePrices, MidjourneyPrices, MixedPrices, MultimodalPrices, TextPrices, UnitPrices } from './price-blocks';

export function PricingSection({ type, corpCode }: { type?: number; corpCode?: string }) {
  const t = usePageLocale(locale);
  const key = quotaKeyOf(type, corpCode);
  switch (key) {
    case 'text_quota':
    case 'audio_quota':
      return <TextPrices key={key} base={key} />;
    case 'image_quota':
      return <ImagePrices />;
    case 'multimodal_quota':
      return <MultimodalPrices search={searchStyle(corpCode)} />;
    case 'realtime_quota':
    case 'multimodal_audio_quota':
      return <MixedPrices key={key} base={key} />;
    case 'midjourney_quotas':
      return <MidjourneyPrices />;
    case 'digital_human_quota':
    case 'audio_clone_quota':
    case 'video_second_creation_quota':
      return <UnitPrices key={key} base={key} />;
    default:
      return <Alert type="info" content={t('model.noPricing')} style={{ marginBottom: 16 }} />;
  }
}
