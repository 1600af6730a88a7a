/**
 * The word lists the sample generator draws from: countries with their cities and shares of customers,
 * product categories with price ranges, brands, first and last names. Weights are relative; the first
 * city of a country is the most populous (cities are picked with a Zipf-like skew).
 */

export interface Country {
  readonly name: string;
  readonly weight: number;
  readonly cities: readonly string[];
}

export const COUNTRIES: readonly Country[] = [
  { name: 'United States', weight: 30, cities: ['New York', 'Los Angeles', 'Chicago', 'Houston', 'Seattle', 'Boston', 'Austin', 'Denver'] },
  { name: 'Germany', weight: 12, cities: ['Berlin', 'Munich', 'Hamburg', 'Cologne', 'Frankfurt'] },
  { name: 'United Kingdom', weight: 10, cities: ['London', 'Manchester', 'Birmingham', 'Edinburgh', 'Bristol'] },
  { name: 'France', weight: 9, cities: ['Paris', 'Lyon', 'Marseille', 'Toulouse', 'Lille'] },
  { name: 'Japan', weight: 7, cities: ['Tokyo', 'Osaka', 'Yokohama', 'Nagoya', 'Sapporo'] },
  { name: 'India', weight: 7, cities: ['Mumbai', 'Delhi', 'Bengaluru', 'Chennai', 'Hyderabad'] },
  { name: 'Canada', weight: 6, cities: ['Toronto', 'Vancouver', 'Montreal', 'Calgary'] },
  { name: 'Brazil', weight: 6, cities: ['São Paulo', 'Rio de Janeiro', 'Brasília', 'Salvador'] },
  { name: 'Australia', weight: 5, cities: ['Sydney', 'Melbourne', 'Brisbane', 'Perth'] },
  { name: 'Spain', weight: 4, cities: ['Madrid', 'Barcelona', 'Valencia', 'Seville'] },
  { name: 'Netherlands', weight: 4, cities: ['Amsterdam', 'Rotterdam', 'Utrecht'] },
];

export interface Category {
  readonly name: string;
  readonly weight: number;
  /** list price range in whole currency units (prices are log-uniform in it, ending in .99) */
  readonly minPrice: number;
  readonly maxPrice: number;
  readonly nouns: readonly string[];
}

export const CATEGORIES: readonly Category[] = [
  { name: 'Electronics', weight: 16, minPrice: 15, maxPrice: 900, nouns: ['Headphones', 'Speaker', 'Charger', 'Keyboard', 'Mouse', 'Monitor', 'Webcam', 'Tablet'] },
  { name: 'Books', weight: 14, minPrice: 6, maxPrice: 45, nouns: ['Novel', 'Cookbook', 'Biography', 'Travel Guide', 'Comic', 'Atlas'] },
  { name: 'Home & Kitchen', weight: 15, minPrice: 10, maxPrice: 300, nouns: ['Knife Set', 'Blender', 'Coffee Maker', 'Frying Pan', 'Lamp', 'Towel Set', 'Kettle'] },
  { name: 'Clothing', weight: 15, minPrice: 10, maxPrice: 250, nouns: ['T-Shirt', 'Jeans', 'Jacket', 'Sneakers', 'Scarf', 'Hoodie'] },
  { name: 'Sports & Outdoors', weight: 11, minPrice: 10, maxPrice: 400, nouns: ['Yoga Mat', 'Dumbbells', 'Running Shoes', 'Water Bottle', 'Tennis Racket', 'Tent'] },
  { name: 'Toys & Games', weight: 10, minPrice: 8, maxPrice: 120, nouns: ['Puzzle', 'Board Game', 'Building Blocks', 'Plush Bear', 'RC Car'] },
  { name: 'Beauty', weight: 10, minPrice: 5, maxPrice: 150, nouns: ['Shampoo', 'Face Cream', 'Perfume', 'Lipstick', 'Sunscreen'] },
  { name: 'Garden', weight: 9, minPrice: 5, maxPrice: 600, nouns: ['Hose', 'Planter', 'Seed Pack', 'Pruner', 'Grill', 'Lawn Mower'] },
];

export const BRANDS: readonly string[] = [
  'Acme', 'Northwind', 'Contoso', 'Globex', 'Initech', 'Umbrella', 'Hooli', 'Vandelay', 'Tyrell', 'Wonka', 'Cyberdyne', 'Soylent',
];

export const ADJECTIVES: readonly string[] = ['Classic', 'Pro', 'Eco', 'Deluxe', 'Compact', 'Smart', 'Ultra', 'Everyday', 'Premium', 'Mini'];

export const FIRST_NAMES: readonly string[] = [
  'Ada', 'Alan', 'Grace', 'Edsger', 'Barbara', 'Donald', 'Margaret', 'Ken', 'Frances', 'John', 'Radia', 'Leslie',
  'Maria', 'Wei', 'Aisha', 'Carlos', 'Yuki', 'Priya', 'Lukas', 'Emma', 'Noah', 'Olivia', 'Mateo', 'Sofia',
  'Liam', 'Chloe', 'Hiro', 'Ananya', 'Jonas', 'Lea', 'Gabriel', 'Camille', 'Arjun', 'Isabela', 'Oliver', 'Mia',
];

export const LAST_NAMES: readonly string[] = [
  'Lovelace', 'Turing', 'Hopper', 'Dijkstra', 'Liskov', 'Knuth', 'Hamilton', 'Thompson', 'Allen', 'Backus', 'Perlman', 'Lamport',
  'Garcia', 'Chen', 'Khan', 'Silva', 'Tanaka', 'Patel', 'Müller', 'Smith', 'Brown', 'Martin', 'Rossi', 'Kowalski',
  'Nguyen', 'Dubois', 'Sato', 'Sharma', 'Schmidt', 'Jones', 'Santos', 'Bernard', 'Gupta', 'Costa', 'Wilson', 'Fischer',
];

/** customer segments and their shares */
export const SEGMENTS: readonly (readonly [string, number])[] = [['consumer', 80], ['small business', 15], ['corporate', 5]];

/** order channels: share at the start of the period and at its end (mobile grows) */
export const CHANNELS: readonly (readonly [string, number, number])[] = [['web', 60, 45], ['mobile', 28, 45], ['marketplace', 12, 10]];
