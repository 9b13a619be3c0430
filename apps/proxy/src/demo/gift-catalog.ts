/** The gift-ideas catalogue served by the demo server (the course's example data). */

export interface Gift {
  name: string;
  price: number;
  category: string;
  brand: string;
  occasions: string[];
}

export const GIFTS: readonly Gift[] = [
  { name: 'Hand-thrown ceramic mug', price: 28, category: 'home', brand: 'Clayworks', occasions: ['birthday', 'thank you', 'holiday'] },
  { name: 'Bluetooth bookshelf speaker', price: 89, category: 'tech', brand: 'Sonora', occasions: ['birthday', 'graduation', 'holiday'] },
  { name: 'Leather-bound journal', price: 35, category: 'stationery', brand: 'Folio & Co', occasions: ['graduation', 'birthday', 'retirement'] },
  { name: 'Cooking class for two', price: 140, category: 'experience', brand: 'Table Tales', occasions: ['anniversary', 'wedding', 'birthday'] },
  { name: 'Succulent trio in planters', price: 24, category: 'home', brand: 'Greenhaus', occasions: ['housewarming', 'thank you', 'birthday'] },
  { name: 'Noise-cancelling headphones', price: 249, category: 'tech', brand: 'Sonora', occasions: ['graduation', 'birthday', 'holiday'] },
  { name: 'Personalised star map print', price: 55, category: 'art', brand: 'Nightsky Studio', occasions: ['anniversary', 'wedding', 'birthday'] },
  { name: 'Artisan chocolate box', price: 18, category: 'food', brand: 'Cacao Lane', occasions: ['thank you', 'holiday', 'birthday', 'congratulations'] },
  { name: 'Weekend spa voucher', price: 320, category: 'experience', brand: 'Still Waters', occasions: ['retirement', 'anniversary', 'congratulations'] },
  { name: 'Fountain pen', price: 65, category: 'stationery', brand: 'Folio & Co', occasions: ['graduation', 'retirement', 'congratulations'] },
  { name: 'Board game night bundle', price: 48, category: 'games', brand: 'Meeple House', occasions: ['birthday', 'housewarming', 'holiday'] },
  { name: 'Espresso grinder', price: 115, category: 'home', brand: 'Crema', occasions: ['housewarming', 'wedding', 'birthday'] },
];

/** What the `gift_catalog` resource returns. */
export function catalogSummary() {
  const prices = GIFTS.map((g) => g.price);
  return {
    categories: [...new Set(GIFTS.map((g) => g.category))].sort(),
    brands: [...new Set(GIFTS.map((g) => g.brand))].sort(),
    minPrice: Math.min(...prices),
    maxPrice: Math.max(...prices),
    currency: 'USD',
  };
}

/** Gifts that fit the occasion (any gift when none is tagged with it) within the budget. */
export function suggestGifts(occasion: string, budget: number): Gift[] {
  const wanted = occasion.trim().toLowerCase();
  const tagged = GIFTS.filter((g) => g.occasions.includes(wanted));
  const pool = tagged.length > 0 ? tagged : GIFTS;
  return pool
    .filter((g) => g.price <= budget)
    .sort((a, b) => b.price - a.price)
    .slice(0, 3);
}
