/**
 * Artwork for the imported catalogue: which Fluent Emoji 3D picture (MIT, © Microsoft; copied into
 * api/db/seed/art/ with LICENSE and ATTRIBUTION.md) shows each product, sub category and category.
 * The source data has no images, and the retailer's photos must never be hotlinked (catalogue README).
 *
 * A product's picture is chosen, first match wins, by
 *   1. keywords in its name, from the rule sets that fit its category (food words are never looked
 *      for in shampoo names: "Honey & Almond Body Lotion" stays a lotion),
 *   2. its sub category's picture (every one of the 334 sub categories has one),
 *   3. its category's picture, and finally
 *   4. a shopping cart.
 * Rules are ordered most specific first: product types ("juice", "pickle", "cookie") before
 * ingredients and flavours ("mango", "chocolate"), so "Mango Pickle" is a pickle jar.
 */
import path from 'node:path'
import { fileURLToPath } from 'node:url'

/** Folder of the bundled artwork files (`<codepoint>.webp`, 256×256). */
export const ART_DIR = path.join(path.dirname(fileURLToPath(import.meta.url)), 'art')

/** Every picture used, by a readable name → its file in ART_DIR (the emoji's code points). */
export const ART = {
  // fruit
  apple: '1f34e.webp',
  lemon: '1f34b.webp',
  mango: '1f96d.webp',
  grapes: '1f347.webp',
  watermelon: '1f349.webp',
  pineapple: '1f34d.webp',
  cherries: '1f352.webp',
  strawberry: '1f353.webp',
  blueberries: '1fad0.webp',
  coconut: '1f965.webp',
  avocado: '1f951.webp',
  olive: '1fad2.webp',
  // vegetables
  tomato: '1f345.webp',
  potato: '1f954.webp',
  onion: '1f9c5.webp',
  garlic: '1f9c4.webp',
  ginger: '1fada.webp',
  carrot: '1f955.webp',
  corn: '1f33d.webp',
  chilli: '1f336-fe0f.webp',
  capsicum: '1fad1.webp',
  cucumber: '1f952.webp',
  brinjal: '1f346.webp',
  leafyGreens: '1f96c.webp',
  broccoli: '1f966.webp',
  mushroom: '1f344.webp',
  peaPod: '1fadb.webp',
  herb: '1f33f.webp',
  salad: '1f957.webp',
  // pantry
  wheat: '1f33e.webp',
  rice: '1f35a.webp',
  beans: '1fad8.webp',
  peanuts: '1f95c.webp',
  chestnut: '1f330.webp',
  oil: '1fad7.webp',
  sunflower: '1f33b.webp',
  butter: '1f9c8.webp',
  salt: '1f9c2.webp',
  honey: '1f36f.webp',
  jar: '1fad9.webp',
  can: '1f96b.webp',
  sake: '1f376.webp',
  // meat, fish, eggs
  egg: '1f95a.webp',
  poultryLeg: '1f357.webp',
  meatOnBone: '1f356.webp',
  hotDog: '1f32d.webp',
  skewer: '1f362.webp',
  fish: '1f41f.webp',
  friedShrimp: '1f364.webp',
  squid: '1f991.webp', // dairy and bakery
  milk: '1f95b.webp',
  cheese: '1f9c0.webp',
  bowlWithSpoon: '1f963.webp',
  bread: '1f35e.webp',
  croissant: '1f950.webp',
  baguette: '1f956.webp',
  flatbread: '1fad3.webp',
  cookie: '1f36a.webp',
  waffle: '1f9c7.webp',
  shortcake: '1f370.webp',
  cupcake: '1f9c1.webp',
  doughnut: '1f369.webp',
  iceCream: '1f368.webp',
  custard: '1f36e.webp',
  // snacks and meals
  chocolate: '1f36b.webp',
  candy: '1f36c.webp',
  dango: '1f361.webp',
  popcorn: '1f37f.webp',
  pretzel: '1f968.webp',
  riceCracker: '1f358.webp',
  fries: '1f35f.webp',
  noodles: '1f35c.webp',
  spaghetti: '1f35d.webp',
  curryRice: '1f35b.webp',
  potOfFood: '1f372.webp',
  dumpling: '1f95f.webp',
  pizza: '1f355.webp', // drinks
  hotBeverage: '2615.webp',
  teacup: '1f375.webp',
  teapot: '1fad6.webp',
  juiceBox: '1f9c3.webp',
  cupWithStraw: '1f964.webp',
  tropicalDrink: '1f379.webp',
  wine: '1f377.webp',
  tumbler: '1f943.webp',
  babyBottle: '1f37c.webp',
  // kitchen
  cooking: '1f373.webp',
  shallowPan: '1f958.webp',
  plate: '1f37d-fe0f.webp',
  cutlery: '1f374.webp',
  spoon: '1f944.webp',
  knife: '1f52a.webp',
  bento: '1f371.webp',
  amphora: '1f3fa.webp',
  fire: '1f525.webp',
  bulb: '1f4a1.webp',
  battery: '1f50b.webp',
  plug: '1f50c.webp',
  umbrella: '2602-fe0f.webp',
  hook: '1fa9d.webp',
  tShirt: '1f455.webp',
  // pets and garden
  dog: '1f436.webp',
  cat: '1f431.webp',
  bone: '1f9b4.webp',
  paws: '1f43e.webp',
  guideDog: '1f9ae.webp',
  seedling: '1f331.webp',
  pottedPlant: '1fab4.webp',
  // cleaning and household
  broom: '1f9f9.webp',
  basket: '1f9fa.webp',
  toiletPaper: '1f9fb.webp',
  bucket: '1faa3.webp',
  bubbles: '1fae7.webp',
  sponge: '1f9fd.webp',
  wastebasket: '1f5d1-fe0f.webp',
  toilet: '1f6bd.webp',
  plunger: '1faa0.webp',
  safetyPin: '1f9f7.webp',
  mosquito: '1f99f.webp',
  candle: '1f56f-fe0f.webp',
  diya: '1fa94.webp',
  bell: '1f514.webp',
  ribbon: '1f380.webp',
  balloon: '1f388.webp',
  lantern: '1f3ee.webp',
  crayon: '1f58d-fe0f.webp',
  palette: '1f3a8.webp',
  pencil: '270f-fe0f.webp',
  notebook: '1f4d3.webp',
  scissors: '2702-fe0f.webp',
  die: '1f3b2.webp',
  shoe: '1f45e.webp',
  chair: '1fa91.webp',
  gift: '1f381.webp',
  // beauty and hygiene
  soap: '1f9fc.webp',
  lotion: '1f9f4.webp',
  toothbrush: '1faa5.webp',
  tooth: '1f9b7.webp',
  razor: '1fa92.webp',
  lipstick: '1f484.webp',
  kissMark: '1f48b.webp',
  nailPolish: '1f485.webp',
  eye: '1f441-fe0f.webp',
  mirror: '1fa9e.webp',
  facial: '1f9d6.webp',
  comb: '1faae.webp',
  haircut: '1f487.webp',
  beard: '1f9d4.webp',
  bouquet: '1f490.webp',
  blossom: '1f338.webp',
  dash: '1f4a8.webp',
  sun: '2600-fe0f.webp',
  pill: '1f48a.webp',
  bandage: '1fa79.webp',
  flexedBiceps: '1f4aa.webp',
  mask: '1f637.webp',
  cloud: '2601-fe0f.webp',
  bathtub: '1f6c1.webp',
  heart: '2764-fe0f.webp',
  droplet: '1f4a7.webp',
  // baby
  baby: '1f476.webp',
  teddyBear: '1f9f8.webp',
  pregnant: '1f930.webp',
  // fallback
  cart: '1f6d2.webp',
} as const

export type ArtName = keyof typeof ART

/**
 * Keyword rules: `[picture, 'word, two words, prefix*, exact=']`, matched on whole words of the
 * normalized text; a plain word also matches its plural (s/es), `prefix*` any ending, `exact=` itself only.
 */
type RuleSpec = readonly [ArtName, string]
interface Rule {
  art: ArtName
  pattern: RegExp
}

function compile(specs: readonly RuleSpec[]): Rule[] {
  return specs.map(([art, words]) => {
    const alternatives = words
      .split(',')
      .map((w) => w.trim())
      .filter(Boolean)
      .map((w) => {
        const word = escape(normalizeForMatch(w))
        if (w.endsWith('*')) return `${word}[a-z]*`
        if (w.endsWith('=')) return word
        return `${word}(?:s|es)?`
      })
    return { art, pattern: new RegExp(`(?:^| )(?:${alternatives.join('|')})(?= |$)`) }
  })
}
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')

/** Lower case, accents and punctuation to spaces, '&' read as 'and': the text rules are matched on. */
export function normalizeForMatch(text: string): string {
  return text
    .normalize('NFKD')
    .replace(/[\u0300-\u036f]/g, '')
    .toLowerCase()
    .replace(/&/g, ' and ')
    .replace(/[^a-z0-9]+/g, ' ')
    .trim()
}

// Prepared foods and drinks, most specific first: telling phrases, then meals, bakery, staples made
// into products, sweets, drinks, and last the dairy and egg words that also appear as flavours.
const FOOD_FORMS = compile([
  ['pill', 'effervescent, tablet, tablets, capsule*'],
  ['chilli', 'chilli flake*, chili flake*, oregano, seasoning*, peri peri, spice mix'],
  ['jar', 'cooking paste*, ginger garlic paste, garlic paste, ginger paste, curry paste'],
  ['olive', 'olive oil'],
  ['coconut', 'coconut oil, coconut milk'],
  ['chocolate', 'choco chip*, chocolate chip*, chocolate syrup, cocoa powder, drinking chocolate'],
  ['tomato', 'ketchup, tomato sauce, tomato puree, pizza sauce, pasta sauce, marinara, arrabbiata'],
  ['peanuts', 'peanut butter, almond butter, nut butter, chikki, gajjak, brittle'],
  ['sake', 'vinegar'],
  ['riceCracker', 'rice cake*, rice cracker*'],
  ['bowlWithSpoon', 'breakfast cereal'],
  [
    'milk',
    'milkshake, milk shake, shake, lassi, buttermilk, chaas, health drink, horlicks, bournvita, complan, protein shake, soy drink, soya drink, almond drink, oat drink, milk mix, milk drink',
  ],
  ['pizza', 'pizza'],
  ['dumpling', 'momo, momos, dumpling, samosa, kachori, spring roll, dim sum'],
  ['potOfFood', 'soup, stew, broth'],
  ['curryRice', 'ready to eat, heat and eat, biryani, pulao, curry, dal makhani, rajma masala, chole, paneer butter masala, khichdi, meal'],
  ['cupcake', 'cupcake, cup cake, muffin'],
  ['doughnut', 'doughnut, donut'],
  ['cookie', 'cookie, biscuit, biskies, cracker, digestive, marie, bourbon, shortbread, short bread, biscotti, khatai, nankhatai, fills'],
  ['shortcake', 'cake, pastry, pastries, brownie, swiss roll, cheesecake, mousse, tart, gateau, swirl, macaron'],
  ['croissant', 'croissant, khari, puff roll*, puff pastry, cream roll*, bagel'],
  ['baguette', 'baguette, bread stick, breadstick, grissini, lavash, garlic bread, focaccia, ciabatta'],
  ['waffle', 'wafer, waffle, waffy'],
  ['fries', 'chips, crisps, french fries, fries, wedges, nachos, nacho, mad angles'],
  ['bread', 'bread, pav, bun, toast, loaf, rusk, breadcrumb, crouton, sandwich, yeast'],
  ['flatbread', 'roti, paratha, parotta, chapati, chapathi, naan, tortilla, wrap, kulcha, pita, thepla, khakhra, bhakhri'],
  ['riceCracker', 'papad, papadum, appalam, fryum'],
  ['noodles', 'noodle, ramen, hakka, chow mein, maggi, udon, soba, vermicelli, seviyan'],
  ['spaghetti', 'pasta, spaghetti, macaroni, penne, fusilli, lasagne, lasagna, fettuccine, linguine, farfalle, rigatoni, conchiglie'],
  [
    'bowlWithSpoon',
    'cornflake*, corn flake, flakes, muesli, granola, oats, oat, porridge, cereal, chocos, dalia, upma, poha mix, idli mix, dosa mix, breakfast mix, batter',
  ],
  ['popcorn', 'popcorn, makhana, puffs'],
  [
    'pretzel',
    'namkeen, bhujia, bhujiya, mixture, sev, chivda, chiwda, murukku, chakli, boondi, dal moth, khatta meetha, mathri, farsan, pretzel, trail mix, sticks',
  ],
  [
    'jar',
    'pickle, achar, chutney, jam, marmalade, preserve, conserve, spread, mayonnaise, mayo, hummus, dip, salsa, pesto, paste, relish, sauce, gulkand',
  ],
  ['iceCream', 'ice cream, icecream, kulfi, frozen dessert, gelato, sorbet, sundae'],
  ['custard', 'custard, pudding, dessert mix, jelly crystal, kheer mix, payasam, firni'],
  [
    'dango',
    'rasgulla, rasagola, gulab jamun, laddu, laddoo, ladoo, barfi, burfi, peda, soan papdi, halwa, mysore pak, kaju katli, indian sweet, mithai, petha, rasmalai',
  ],
  ['chocolate', 'chocolate, choco*, cocoa, truffle, praline, kitkat, dairy milk, snickers, ferrero, nutella, bar, bars'],
  [
    'candy',
    'lollipop, lollypop, lolly, candy, candies, toffee, eclairs, gummy, gummies, jelly, jellies, marshmallow, mint, mints, lozenge, gum, bonbon, fudge, gems, mouth freshener, mukhwas',
  ],
  ['teacup', 'green tea, herbal tea, tea bag, chamomile, infusion, tisane, kahwa, matcha, white tea, oolong'],
  ['teapot', 'tea, chai, darjeeling, assam, ctc, earl grey, english breakfast'],
  ['hotBeverage', 'coffee, espresso, cappuccino, latte, mocha, chicory, filter coffee, nescafe, arabica, brew'],
  ['juiceBox', 'juice, nectar, smoothie, cold press*, coconut water, kombucha, fruit drink'],
  ['tropicalDrink', 'squash, syrup, sharbat, sherbet, concentrate, mocktail, cordial, mojito, jaljeera, aam panna, drink mix'],
  [
    'cupWithStraw',
    'soda, cola, soft drink, energy drink, sparkling, aerated, tonic water, ginger ale, mineral water, drinking water, water, cold drink, iced tea, ice tea',
  ],
  ['wine', 'non alcoholic wine, wine, beer, cider, malt drink'],
  ['hotDog', 'sausage, salami, frankfurter, hot dog, hotdog, pepperoni'],
  ['skewer', 'kebab, kabab, tikka, seekh, shami, galouti'],
  ['poultryLeg', 'nugget, popcorn chicken, chicken'],
  ['honey', 'honey, maple syrup'],
  ['butter', 'ghee, butter, margarine, vanaspati'],
  ['cheese', 'cheese, paneer, tofu, tempeh, mozzarella, cheddar, parmesan, feta, ricotta, cream cheese'],
  ['bowlWithSpoon', 'curd, yogurt, yoghurt, dahi, shrikhand, raita, skyr'],
  ['milk', 'milk, cream, creamer, milk powder, whitener, dairy'],
  ['egg', 'egg'],
])

// Fresh produce: used first in Fruits & Vegetables, after the product types elsewhere.
const PRODUCE = compile([
  ['herb', 'lemongrass, lemon grass, curry leaves, curry leaf'],
  ['coconut', 'tender coconut, coconut'],
  ['onion', 'onion, spring onion, shallot, sambar onion'],
  ['potato', 'potato, aloo, yam, colocasia, arbi, suran, tapioca'],
  ['tomato', 'tomato, cherry tomato'],
  ['garlic', 'garlic'],
  ['ginger', 'ginger, turmeric root, fresh turmeric, mango ginger'],
  ['lemon', 'lemon, lime, nimbu'],
  ['capsicum', 'capsicum, bell pepper, pepper red, pepper yellow'],
  ['chilli', 'chilli, chili, chillies, chilly, mirchi, jalapeno, paprika'],
  ['brinjal', 'brinjal, eggplant, baingan, aubergine'],
  ['cucumber', 'cucumber, zucchini, gherkin, gourd, lauki, tinda, karela, parwal, tondli, coccinia, pumpkin, chow chow, chayote, squash'],
  ['carrot', 'carrot, beetroot, beet, radish, mooli, turnip, knol khol, kohlrabi'],
  ['broccoli', 'broccoli, cauliflower'],
  ['corn', 'corn, baby corn, sweet corn, bhutta'],
  ['mushroom', 'mushroom'],
  ['peaPod', 'beans, bean, peas, pea, matar, okra, ladies finger, bhindi, drumstick, sprout*, edamame'],
  ['herb', 'coriander, mint, basil, parsley, thyme, rosemary, dill, microgreen*, herb*, tulsi'],
  [
    'leafyGreens',
    'cabbage, lettuce, spinach, palak, methi, amaranth*, leaves, leaf, greens, kale, bok choy, pak choi, sorrel, gongura, celery, leek, fenugreek, keerai',
  ],
  ['avocado', 'avocado'],
  ['olive', 'olive'],
  ['apple', 'apple, pomegranate, anar, amla, gooseberry'],
  ['mango', 'mango, alphonso, totapuri, banganapalli'],
  ['grapes', 'grape, raisin, kishmish, munakka, currant, sultana'],
  ['watermelon', 'watermelon'],
  ['pineapple', 'pineapple'],
  ['cherries', 'cherry, cherries, litchi, lychee, jamun'],
  ['strawberry', 'strawberry, strawberries, raspberry, dragon fruit'],
  ['blueberries', 'blueberry, blueberries, cranberry, cranberries, blackberry, mulberry, berries, acai, goji'],
  [
    'salad',
    'salad, cut vegetable*, cut veg*, diced, chopped, peeled, stir fry mix, mixed vegetable*, sambar mix, soup mix, fruit bowl, cut fruit*',
  ],
])

// Staples: oils, nuts and dry fruit, salt, flours and grains, pulses, spices, sugar.
const PANTRY = compile([
  ['chilli', 'masala, spice mix, seasoning*'],
  ['sunflower', 'sunflower, safflower oil'],
  ['coconut', 'coconut oil, desiccated coconut, coconut powder, copra, coconut milk'],
  ['olive', 'olive oil, olive pomace'],
  ['oil', 'oil, rice bran, canola, mustard oil, groundnut oil, gingelly, sesame oil, til oil, cooking spray'],
  ['butter', 'ghee, vanaspati, butter'],
  ['peanuts', 'peanut, groundnut, cashew, kaju, chana jor, roasted chana, chikki'],
  [
    'chestnut',
    'almond, badam, walnut, akhrot, pista, pistachio, hazelnut, macadamia, brazil nut, pecan, pine nut, chilgoza, chestnut, dates, khajur, kharjura, chuwara, fig, anjeer, dry fruit*, dried fruit*, nut, nuts, seeds mix, chia, flax, flaxseed*, pumpkin seed*, watermelon seed*, melon seed*, basil seed*, sabja, makhana, fox nut, lotus seed*, anardana',
  ],
  ['grapes', 'raisin, kishmish, munakka, currant, sultana'],
  ['salt', 'salt, sendha, rock salt, black salt, himalayan'],
  [
    'wheat',
    'atta, wheat, flour, maida, sooji, suji, rava, semolina, besan, millet, ragi, jowar, bajra, quinoa, barley, multigrain, amaranth, rajgira, kuttu, buckwheat, singhara, nachni, kodo, foxtail, barnyard, grain, grains, cornmeal, cornflour, arrowroot, bran, dalia',
  ],
  ['rice', 'rice, basmati, sona masoori, poha, avalakki, murmura, puffed rice, sabudana, sago, kolam, ponni, matta'],
  [
    'beans',
    'dal, daal, lentil, moong, mung, toor, tur, arhar, urad, chana, channa, chickpea, kabuli, rajma, masoor, lobia, cowpea, moth, kulthi, horse gram, gram, kidney bean, black eyed, pulse, soya chunk*, soya bean, soybean, beans, bean, peas',
  ],
  [
    'honey',
    'jaggery, gur, gud, palm sugar, coconut sugar, brown sugar, sugar, khand, mishri, sweetener, stevia, sucralose, sugar free, sugarfree',
  ],
  [
    'chilli',
    'spice, chilli, chili, chilly, mirchi, turmeric, haldi, jeera, cumin, coriander, dhania, pepper, cardamom, elaichi, elachi, elakki, clove, laung, cinnamon, cassia, dalchini, mustard, rai, methi, fenugreek, fennel, saunf, ajwain, carom, hing, asafoetida, bay leaf, bay leaves, tej patta, nutmeg, jaiphal, mace, javitri, star anise, kalonji, nigella, til, sesame, poppy, khus khus, saffron, kesar, tamarind, imli, kokum, amchur, garam, chaat, sambar, rasam, kasuri, marathi moggu, stone flower, triphala, jaljira',
  ],
  ['herb', 'herb*, oregano, thyme, rosemary, basil, parsley, mint, curry leaves'],
  ['ginger', 'ginger, sonth, saunth'],
  ['garlic', 'garlic'],
  ['corn', 'corn, maize, popcorn kernel*'],
])

// Eggs, meat and fish: the animal before the dish, so "Chicken Curry Cut" is chicken.
const PROTEIN = compile([
  ['fish', 'bombay duck, fish fillet*, fish steak*, fish finger*'],
  ['hotDog', 'sausage, salami, frankfurter, hot dog, pepperoni'],
  ['egg', 'egg'],
  ['friedShrimp', 'prawn, shrimp, tiger prawn*'],
  ['squid', 'crab'],
  ['squid', 'squid, calamari, octopus, cuttlefish, oyster, mussel, clam, lobster, scallop, seafood'],
  ['skewer', 'kebab, kabab, tikka, seekh, lollypop, lollipop'],
  ['poultryLeg', 'chicken, broiler, drumstick*, wing*, nugget*, turkey, duck, quail, kadaknath'],
  ['meatOnBone', 'mutton, lamb, goat, keema, kheema, chops, paya, trotter*, liver, offal, raan, pork, beef, ribs, bacon, ham'],
  [
    'fish',
    'fish, rohu, catla, katla, pomfret, salmon, tuna, basa, seer, surmai, bangda, mackerel, sardine, hilsa, ilish, tilapia, pangasius, anchovy, bhetki, bhetuki, rawas, croaker, king fish, kingfish, mathi, nethili, vanjaram, karimeen, murrel, pabda, mrigal, tengra, parshe, magur, boal, trout, cod, sole, snapper, grouper, barracuda, fillet*, steak*',
  ],
])

const HOME = compile([
  ['toilet', 'toilet cleaner, harpic, toilet bowl, urinal'],
  ['toiletPaper', 'toilet paper, toilet roll, toilet tissue, tissue, napkin, paper towel, kitchen towel, kitchen roll, facial tissue'],
  ['shoe', 'shoe, polish, shoe shine*, shoe horn'],
  ['bouquet', 'air freshener, room freshener, car freshener, odonil, car perfume'],
  ['basket', 'basket, laundry bag, storage bag, storage box, organiser, organizer, hamper, container, storage'],
  [
    'bubbles',
    'detergent, washing powder, laundry liquid, liquid detergent, fabric conditioner, fabric softener, softener, stain remover, whitener, bleach, starch, dishwash, dish wash, dishwashing, dish washing, dishwasher, utensil cleaner, washing liquid, washing bar, detergent bar, detergent cake, fabric',
  ],
  ['sponge', 'scrub, scrubber, scourer, sponge, steel wool, scouring, scrub pad, microfiber, cloth, glove'],
  ['plunger', 'toilet brush, drain, plunger, unclog*'],
  ['broom', 'mop, mops, wiper, broom, dust pan, dustpan, jhadu, squeegee, duster, cobweb, refill'],
  ['chair', 'stool, bath stool, patla'],
  ['bucket', 'bucket, mug, tub, basin, bath set'],
  ['wastebasket', 'dustbin, bin, garbage bag, garbage, trash, waste, bin bag*'],
  ['candle', 'candle, tealight, tea light, t light'],
  ['fire', 'match, matchbox, match box, lighter'],
  [
    'diya',
    'agarbatti, incense, dhoop, sambrani, camphor, kapur, pooja, puja, kumkum, chandan, diya, deepam, lamp, wick, batti, lamp oil, havan, aarti, rangoli, kalash',
  ],
  ['bell', 'bell, thali, ghanti'],
  [
    'mosquito',
    'mosquito, repellent, repellant, coil, liquidator, insect, cockroach, termite, bed bug, good knight, goodknight, all out, mortein, vaporizer, racket',
  ],
  ['hook', 'hanger, hook, rope, cloth line, clothesline, twine'],
  ['safetyPin', 'clip, clips, peg, pegs, clothespin, clothes pin'],
  ['ribbon', 'rakhi, rakhee, rakshabandhan, raksha bandhan, lumba'],
  ['palette', 'pichkari, water gun, water pistol, holi, gulal, poster colour*, water colour*, watercolour*, paint, painting, artist'],
  ['crayon', 'crayon, sketch pen*, oil pastel*, marker, highlighter, colour pencil*, color pencil*'],
  ['scissors', 'scissor, scissors, glue, tape, stapler, adhesive, fevicol, fevistick, cutter'],
  ['pencil', 'pencil, pen, pens, eraser, sharpener, pencil box, geometry box, exam pad, clipboard, ruler, scale'],
  ['notebook', 'notebook, note book, long book, file, folder, register, diary, writing pad, drawing book, sketch book, envelope'],
  ['balloon', 'balloon, birthday cap, party cap, cap, party popper, confetti, party'],
  [
    'lantern',
    'decoration, decorations, decorative, garland, toran, lantern, string light, fairy light, festoon, bunting, banner, backdrop, artificial flower*, curtain',
  ],
  ['die', 'game, games, calculator, puzzle, playing cards, chess, ludo, carrom, toy, craft kit'],
  ['soap', 'soap case, soap dish, soap dispenser, dispenser, soap'],
  ['cupWithStraw', 'disposable cup, paper cup, plastic cup, straw, cups'],
  ['plate', 'disposable plate, paper plate, plate, bowl, spoon'],
  ['bento', 'aluminium foil, foil, cling wrap, clingwrap, cling film, butter paper, baking paper, parchment, zip lock, ziplock, food wrap'],
  [
    'lotion',
    'disinfectant, sanitiser, sanitizer, floor cleaner, surface cleaner, glass cleaner, kitchen cleaner, cleaner, cleanser, lizol, colin, dettol, phenyl, spray, multipurpose, multi purpose',
  ],
  ['battery', 'battery, batteries, cell'],
  ['plug', 'extension, plug, socket, adapter, adaptor, charger, cable, wire, switch, usb, keyboard, mouse'],
  ['bulb', 'bulb, led, cfl, tubelight, tube light, torch, emergency light'],
])

const KITCHEN = compile([
  [
    'knife',
    'knife, knives, peeler, chopper, grater, slicer, mandoline, vegetable cutter, pizza cutter, scissor, chopping board, cutting board, scraper, scrapper',
  ],
  [
    'cupcake',
    'cupcake mould*, muffin, cake mould*, mould, mold, cookie cutter, biscuit cutter, cutter, springform, baking tray, bakeware, cake tin, loaf pan, cake pan, piping, nozzle, icing, cake stand, turntable, cookie presser',
  ],
  ['tShirt', 'cloth dryer, clothes dryer, drying stand, ironing board, iron table, iron board'],
  [
    'potOfFood',
    'pressure cooker, cooker, idli maker, idli stand, idli plate, idly cooker, steamer, handi, biryani pot, stock pot, pot, pots, gunj',
  ],
  [
    'cooking',
    'tawa, tava, fry pan, frypan, frying pan, kadai, kadhai, kadahi, wok, sauce pan, saucepan, milk pan, tea pan, skillet, grill pan, appam, paniyaram, tadka pan, omelette pan, cookware, non stick, nonstick, pan',
  ],
  ['shallowPan', 'casserole, hot pot, hotpot, hot case, serving pot, cook and serve, cook n serve, roaster, urli'],
  [
    'spoon',
    'spoon, ladle, laddle, spatula, turner, strainer, sieve, whisk, whisker, beater, tong*, skimmer, jhara, masher, rolling pin, belan, chakla, polpat, pol pat, brush, opener, squeezer, server, scoop',
  ],
  ['cutlery', 'fork, cutlery, knife set'],
  ['plate', 'dinner set, dinnerware, plate, thali, platter, serving tray, place mat, table mat, coaster'],
  ['bento', 'lunch box, lunchbox, tiffin, lunch bag, lunch set'],
  ['wine', 'wine glass, champagne, flute glass'],
  ['tumbler', 'whisky glass, whiskey glass, shot glass, glass set, tumbler, highball, hi ball, water glass'],
  ['hotBeverage', 'cup, mug, tea cup, coffee mug, cup and saucer, saucer, tea set, kettle'],
  ['teapot', 'teapot, tea pot'],
  ['bowlWithSpoon', 'bowl, vessel, patila, tope, mixing bowl, katori, kolga'],
  ['oil', 'oil dispenser, oil can, oil pourer'],
  ['sake', 'bottle, water bottle, fridge bottle, sipper, flask, thermos, jug, pitcher, carafe, decanter, dispenser'],
  ['jar', 'container, jar, canister, dabba, spice box, masala box, airtight, air tight, storage container*, storage jar*'],
  ['amphora', 'copper, brass, matka, clay pot, earthen'],
  ['fire', 'gas stove, stove, burner, hob, lighter, gas lighter'],
  ['bulb', 'bulb, led, cfl, tubelight, tube light, batten, lamp, lantern, torch, emergency light, downlight, panel light'],
  ['battery', 'battery, batteries, cell, rechargeable'],
  ['plug', 'extension, plug, socket, adapter, adaptor, switch, spike guard, surge, cord, wire, usb'],
  ['umbrella', 'umbrella'],
  ['hook', 'hook, hanger, wall hook, towel hook, key holder'],
  ['basket', 'rack, stand, holder, organiser, organizer, basket, caddy, shelf, trolley, drawer, storage'],
  ['tumbler', 'glass, glasses'],
])

// Pet food: the animal it is for, else a treat; pet care items are shown by their sub category.
const PETS = compile([
  ['cat', 'cat, cats, kitten, kitty, whiskas, me o, meo, feline, purr*'],
  ['bone', 'chew, chews, bone, treat, treats, jerky, stix, stick, sticks, munchies, biscuit, biskies'],
  ['dog', 'dog, dogs, puppy, puppies, pup, pups, pedigree, drools, canine, kibble*'],
])

const GARDEN = compile([
  [
    'seedling',
    'seed, seeds, fertilizer, fertiliser, manure, compost, pesticide, insecticide, soil, potting mix, cocopeat, vermicompost, plant food',
  ],
  ['pottedPlant', 'pot, pots, planter, planters, tray, hanging, vase'],
])

const BEAUTY = compile([
  ['gift', 'gift set, gift pack, gift box, giftset, gift kit, hamper'],
  ['toothbrush', 'toothbrush, tooth brush, electric toothbrush'],
  ['tooth', 'toothpaste, tooth paste, tooth powder, toothpowder, dant manjan, mouthwash, mouth wash, dental, floss, gum care, oral care'],
  ['mask', 'surgical, n95, kn95, face shield, ppe, 3 ply, disposable mask*'],
  ['beard', 'beard, moustache, mustache'],
  [
    'razor',
    'razor, shaving, shave, shaver, trimmer, razor blade*, shaving blade*, cartridge, hair removal, hair remover, hair removing, wax strip*, waxing, hot wax, cold wax, epilator, depilatory, veet, after shave, aftershave',
  ],
  [
    'nailPolish',
    'nail=, nail polish, nail paint, nail enamel, nail colour, nail color, nail lacquer, nailpaint, nailpolish, nail art, manicure, pedicure, cuticle, gel polish, lacquer',
  ],
  ['kissMark', 'lip balm, lip care, lip butter, lip scrub, lip mask, lip serum, lip oil, lip therapy, lip polish*, chapstick'],
  [
    'lipstick',
    'lipstick, lip stick, lip colour, lip color, lipcolor, lipcolour, lip gloss, lipgloss, lip liner, lipliner, lip crayon, lip tint, lip stain, lip kit, liquid lip, matte lip, lips=',
  ],
  ['dash', 'deodorant, deo, antiperspirant, anti perspirant, roll on, rollon, body spray, body mist, body splash'],
  ['blossom', 'sanitary, period, panty liner, pantyliner, tampon, menstrual, intimate, vaginal, feminine'],
  ['heart', 'condom, lubricant, lube, sexual, durex, manforce, skore'],
  ['safetyPin', 'adult diaper, diaper, incontinence, underpad'],
  ['bandage', 'bandage, band aid, bandaid, plaster, antiseptic, savlon, gauze, crepe, first aid, wound'],
  ['droplet', 'essential oil, diffuser oil, carrier oil, aroma oil, aromatherapy'],
  ['haircut', 'hair colour, hair color, hair dye'],
  ['lotion', 'shampoo, conditioner, hair oil, hair serum, hair mask, hair spa, scalp, dandruff, hair fall, hair growth, onion oil'],
  [
    'haircut',
    'henna, mehendi, mehandi, hair gel, hair wax, hair spray, hairspray, styling, hair cream, pomade, straightener, dryer, curling',
  ],
  [
    'flexedBiceps',
    'whey, mass gainer, weight gainer, gainer, bcaa, creatine, casein, protein powder, peanut butter, pre workout, preworkout',
  ],
  ['soap', 'soap, bathing bar, beauty bar, body bar, bath bar, handwash, hand wash, sanitizer, sanitiser, hand rub, handrub'],
  [
    'bubbles',
    'body wash, bodywash, shower gel, shower cream, shower oil, foaming, face wash, facewash, cleanser, cleansing, micellar water, bubble bath, wash',
  ],
  [
    'eye',
    'kajal, kohl, eyeliner, eye liner, mascara, eyeshadow, eye shadow, eye shade, eye powder, eyebrow, brow, lash, lashes, eyelash*, eye pencil, eye primer, eye makeup, liner, shadow, glitter',
  ],
  ['comb', 'comb, hair brush, hairbrush, hair pin, hair clip, bobby pin, hair band, hairband, headband, scrunchie, rubber band, pony'],
  [
    'mirror',
    'foundation, concealer, conceal, compact, primer, blush, blusher, highlighter, bronzer, contour, bb cream, cc cream, makeup, make up, setting spray, fixing spray, loose powder, face powder, makeup remover, makeup sponge, beauty blender, mirror, tweezer, curler, applicator, palette',
  ],
  ['bathtub', 'bath salt, bath oil, bath bomb, bath, shower cap, loofah, loofa, bath sponge, back scrubber, body scrubber, pumice, towel'],
  ['sun', 'sunscreen, sun screen, sunblock, sun block, spf, sun protection, after sun'],
  [
    'facial',
    'face pack, face mask, sheet mask, peel off, peel, clay mask, mud mask, mask, facial kit, facial, face scrub, scrub, exfoliat*, bleach, de tan, detan, ubtan, multani mitti, toner, rose water, gulabjal, gulab jal, kit',
  ],
  [
    'lotion',
    'cream, creme, moisturiser, moisturizer, moisturise, moisturize, moisturising, moisturizing, lotion, body butter, body milk, body yogurt, serum, vaseline, petroleum jelly, talc, talcum, prickly heat, skin oil, face oil, body oil, beauty oil',
  ],
  ['bouquet', 'perfume, parfum, eau de, cologne, attar, ittar, edt, edp, edc, scent'],
  [
    'pill',
    'tablet, tablets, capsule, capsules, softgel, softgels, vitamin, multivitamin, multi vitamin, omega, calcium, iron, zinc, biotin, collagen, probiotic*, supplement, protein, tonic, syrup, medicine, pain relief, balm, ointment, vaporub, inhaler, antacid, digestive, churna, churan, vati, ras, guggulu, arishta, asava, chyawanprash, kadha, kwath, immunity, effervescent, ors, electrolyte, glucose, pregnancy test, test kit, nasal, melatonin, psyllium, isabgol, wheatgrass, spirulina, shilajit, shilajeet, garcinia, fat burner, apple cider vinegar, shake',
  ],
  ['candle', 'candle, diffuser, reed diffuser, incense, potpourri'],
  ['cloud', 'cotton, cotton ball, ear bud, earbud, cotton bud, cotton swab, cotton pad*'],
  ['scissors', 'scissor, scissors, nail cutter, clipper'],
  ['herb', 'aloe, aloe vera, neem, tulsi, ashwagandha, amla, triphala, brahmi, shatavari, giloy, moringa, herbal, ayurvedic'],
  ['dash', 'spray, mist'],
  ['gift', 'combo, set'],
  ['lotion', 'oil, gel, powder, jelly'],
])

const BABY = compile([
  ['toiletPaper', 'wipes, wipe, tissue'],
  ['bubbles', 'laundry, detergent, liquid wash, fabric, stain, cleanser'],
  ['teddyBear', 'gift set, gift pack, gift box, hamper, toy, bib, romper, collection'],
  ['bathtub', 'bath, body wash, baby wash, bather, tub'],
  ['toothbrush', 'toothbrush, tooth brush, toothpaste, tooth, oral, teether, teething'],
  ['scissors', 'scissor, scissors, nail'],
  ['comb', 'comb, brush, clipper, grooming'],
  ['pregnant', 'maternity, stretch mark*, pregnancy, nursing, breast pad*, mom, moms, mother, nipple'],
  ['pill', 'vapour, vapor, congestion, gripe water, drops'],
  ['babyBottle', 'bottle, feeder, feeding, pacifier, soother, sipper, baby food, cereal, formula'],
  ['lotion', 'powder, talc, cream, lotion, oil, massage, shampoo, balm, rash, jelly'],
  ['baby', 'diaper, diapers, nappy, nappies, pants, pull ups'],
])

type RuleSet = 'forms' | 'produce' | 'pantry' | 'protein' | 'home' | 'kitchen' | 'pets' | 'garden' | 'beauty' | 'baby'
const RULE_SETS: Record<RuleSet, Rule[]> = {
  forms: FOOD_FORMS,
  produce: PRODUCE,
  pantry: PANTRY,
  protein: PROTEIN,
  home: HOME,
  kitchen: KITCHEN,
  pets: PETS,
  garden: GARDEN,
  beauty: BEAUTY,
  baby: BABY,
}

/** Each of the 11 categories: its picture and the rule sets its product names are read with, in order. */
const CATEGORIES: Record<string, { art: ArtName; rules: RuleSet[] }> = {
  'Fruits & Vegetables': { art: 'broccoli', rules: ['produce', 'forms'] },
  'Eggs, Meat & Fish': { art: 'poultryLeg', rules: ['protein', 'forms'] },
  'Foodgrains, Oil & Masala': { art: 'wheat', rules: ['pantry', 'forms', 'produce'] },
  Beverages: { art: 'juiceBox', rules: ['forms', 'produce'] },
  'Bakery, Cakes & Dairy': { art: 'bread', rules: ['forms', 'pantry', 'produce'] },
  'Snacks & Branded Foods': { art: 'popcorn', rules: ['forms', 'pantry', 'produce'] },
  'Gourmet & World Food': { art: 'spaghetti', rules: ['forms', 'pantry', 'produce'] },
  'Cleaning & Household': { art: 'broom', rules: ['home'] },
  'Kitchen, Garden & Pets': { art: 'cooking', rules: ['kitchen'] },
  'Beauty & Hygiene': { art: 'lipstick', rules: ['beauty'] },
  'Baby Care': { art: 'babyBottle', rules: ['baby', 'beauty'] },
}

/**
 * Each sub category's picture, and where its products' names mislead, the rule sets to read them with
 * instead of the category's (`[]`: the sub category picture for every product).
 * The 334 names are unique across categories in the data, so the name alone is the key.
 */
const SUB_CATEGORIES: Record<string, ArtName | readonly [ArtName, RuleSet[]]> = {
  // Fruits & Vegetables
  'Potato, Onion & Tomato': 'potato',
  'Root Vegetables': 'carrot',
  'Beans, Brinjals & Okra': 'brinjal',
  'Gourd, Pumpkin, Drumstick': 'cucumber',
  'Cucumber & Capsicum': 'capsicum',
  'Leafy Vegetables': 'leafyGreens',
  'Lemon, Ginger & Garlic': 'lemon',
  'Indian & Exotic Herbs': 'herb',
  'Organic Vegetables': 'broccoli',
  Specialty: 'mushroom',
  'Cut & Peeled Veggies': ['salad', ['produce']],
  'Seasonal Fruits': 'mango',
  'Cut Fruit, Tender Coconut': 'coconut',
  'Organic Fruits': 'apple',
  'Apples & Pomegranate': 'apple',
  'Exotic Vegetables': 'avocado',
  // Eggs, Meat & Fish
  'Farm Eggs': 'egg',
  'Fresh Chicken': 'poultryLeg',
  'Fresh Mutton': 'meatOnBone',
  'Protein Eggs': 'egg',
  'Fresh Water Fish': 'fish',
  'Marine Water Fish': 'fish',
  'Marinated Meat': 'skewer',
  'Prawns & Shrimps': 'friedShrimp',
  'Chicken Sausages': 'hotDog',
  'Other Seafood': 'squid',
  'Frozen Fish & Seafood': 'friedShrimp',
  // Foodgrains, Oil & Masala
  'Atta Whole Wheat': 'wheat',
  'Raw Rice': 'rice',
  'Whole Spices': 'chilli',
  'Sunflower, Rice Bran Oil': 'sunflower',
  'Toor, Channa & Moong Dal': 'beans',
  'Sooji, Maida & Besan': 'wheat',
  'Poha, Sabudana & Murmura': 'rice',
  'Urad & Other Dals': 'beans',
  'Organic Dry Fruits': 'chestnut',
  'Organic Sugar, Jaggery': 'honey',
  'Rice & Other Flours': 'wheat',
  'Boiled & Steam Rice': 'rice',
  'Blended Cooking Oils': 'oil',
  'Organic Masalas & Spices': 'chilli',
  'Organic Rice, Other Rice': 'rice',
  Almonds: 'chestnut',
  'Olive & Canola Oils': 'olive',
  'Organic Dals & Pulses': 'beans',
  'Other Dry Fruits': 'chestnut',
  Cashews: 'peanuts',
  'Sugar & Jaggery': 'honey',
  'Cereals & Millets': 'wheat',
  'Organic Edible Oil, Ghee': 'oil',
  'Basmati Rice': 'rice',
  Salts: 'salt',
  'Organic Millet & Flours': 'wheat',
  Raisins: 'grapes',
  'Organic Flours': 'wheat',
  'Cooking Coconut Oil': 'coconut',
  'Sugarfree Sweeteners': 'salt',
  'Cooking Pastes': ['garlic', ['forms', 'pantry']],
  'Powdered Spices': 'chilli',
  Mukhwas: ['candy', []],
  'Blended Masalas': 'chilli',
  'Ghee & Vanaspati': 'butter',
  'Herbs & Seasoning': 'herb',
  'Gingelly Oil': 'oil',
  // Cleaning & Household
  'Toilet Cleaners': 'toilet',
  'Detergent Powder, Liquid': 'bubbles',
  'Mops, Wipers': 'broom',
  'Buckets & Mugs': 'bucket',
  'Disinfectant Spray & Cleaners': 'lotion',
  'Floor & Other Cleaners': 'lotion',
  'Toilet Paper': 'toiletPaper',
  'Paper Napkin, Tissue Box': 'toiletPaper',
  'Dust Cloth & Wipes': 'sponge',
  'Hangers, Clips & Rope': 'hook',
  'Toilet & Other Brushes': 'plunger',
  'Brooms & Dust Pans': 'broom',
  'Disposable Cups & Plates': 'cupWithStraw',
  Dustbins: 'wastebasket',
  'Colours & Crayons': 'crayon',
  'Laundry, Storage Baskets': 'basket',
  Rakhi: ['ribbon', []],
  'Other Pooja Needs': 'diya',
  'Soap Cases & Dispensers': 'soap',
  'Bath Stool, Basin & Sets': 'chair',
  'Mosquito Repellent': ['mosquito', []],
  'Scissor, Glue & Tape': 'scissors',
  'Utensil Scrub-Pad, Glove': 'sponge',
  'Agarbatti, Incense Sticks': ['diya', []],
  'Seasonal Accessories': 'umbrella',
  Decorations: 'lantern',
  'Air Freshener': 'bouquet',
  'Games & Calculators': 'die',
  'Holi Colours & Pichkari': 'palette',
  'Caps, Balloons & Candles': 'balloon',
  'Fabric Pre, Post Wash': 'bubbles',
  'Kitchen, Glass & Drain': 'lotion',
  'Dishwash Liquids & Pastes': 'bubbles',
  'Candles & Match Box': 'candle',
  'Erasers & Sharpeners': 'pencil',
  'Aluminium Foil, Clingwrap': 'bento',
  'Pooja Thali & Bells': 'bell',
  'Shoe Shiners & Brushes': 'shoe',
  'Dishwash Bars & Powders': 'bubbles',
  'Electronic Accessories': 'plug',
  'Shoe Polish': 'shoe',
  'Notebooks, Files, Folders': 'notebook',
  'Lamp & Lamp Oil': 'diya',
  'Exam Pads & Pencil Box': 'pencil',
  // Beverages
  'Leaf & Dust Tea': 'teapot',
  Juices: 'juiceBox',
  'Instant Coffee': 'hotBeverage',
  'Cold Drinks': 'cupWithStraw',
  'Unsweetened, Cold Press': 'juiceBox',
  'Ground Coffee': 'hotBeverage',
  'Syrups & Concentrates': 'tropicalDrink',
  'Green Tea': 'teacup',
  'Children (2-5 Yrs)': 'milk',
  'Exotic & Flavoured Tea': 'teacup',
  'Tea Bags': 'teacup',
  'Kids (5+Yrs)': 'milk',
  'Non Alcoholic Drinks': 'tropicalDrink',
  // Bakery, Cakes & Dairy
  'Paneer, Tofu & Cream': 'cheese',
  Milk: 'milk',
  'Butter & Margarine': 'butter',
  Curd: 'bowlWithSpoon',
  'Dairy Free (Vegan)': 'milk',
  'Flavoured, Soya Milk': ['milk', []],
  Cheese: 'cheese',
  'Bakery Biscuits, Cookies': 'cookie',
  'Croissants, Bagels': 'croissant',
  'Tea Cakes & Slice Cakes': 'shortcake',
  Rusks: 'bread',
  'Khari & Cream Rolls': 'croissant',
  'Yogurt & Shrikhand': 'bowlWithSpoon',
  'Ice Creams': 'iceCream',
  'Premium Cookies': 'cookie',
  'Doughnuts & Mousses': 'doughnut',
  'Bread Sticks & Lavash': 'baguette',
  'Breadcrumbs & Croutons': 'bread',
  'Muffins & Cup Cakes': 'cupcake',
  'Gourmet Bread': 'bread',
  'Pastries & Brownies': 'shortcake',
  // Snacks & Branded Foods
  'Instant Noodles': 'noodles',
  'Breakfast & Snack Mixes': 'bowlWithSpoon',
  'Frozen Vegetables': ['peaPod', ['produce']],
  'Oats & Porridge': 'bowlWithSpoon',
  Honey: 'honey',
  'Kids Cereal': 'bowlWithSpoon',
  Chocolates: 'chocolate',
  'Namkeen & Savoury Snacks': 'pretzel',
  'Tomato Ketchup & Sauces': 'tomato',
  'Cream Biscuits & Wafers': 'cookie',
  'Chips & Corn Snacks': 'fries',
  'Home Baking': 'cupcake',
  Cookies: 'cookie',
  Muesli: 'bowlWithSpoon',
  'Marie, Health, Digestive': 'cookie',
  'Glucose & Milk Biscuits': 'cookie',
  'Pasta & Macaroni': 'spaghetti',
  'Chikki & Gajjak': 'peanuts',
  'Frozen Veg Snacks': 'dumpling',
  'Granola & Cereal Bars': ['chocolate', []],
  'Other Veg Pickle': 'jar',
  'Toffee, Candy & Lollypop': 'candy',
  'Chilli & Soya Sauce': ['chilli', []],
  'Gift Boxes': 'gift',
  'Frozen Indian Breads': 'flatbread',
  'Fresh Sweets': 'dango',
  'Frozen Non-Veg Snacks': 'poultryLeg',
  'Instant Pasta': 'spaghetti',
  'Chutney Powder': ['jar', []],
  'Choco & Nut Spread': ['jar', []],
  Mayonnaise: 'jar',
  'Heat & Eat Ready Meals': 'curryRice',
  'Papads, Ready To Fry': 'riceCracker',
  'Tinned, Packed Sweets': 'can',
  'Salted Biscuits': 'cookie',
  'Non Veg Pickle': 'jar',
  'Dessert Mixes': 'custard',
  Flakes: 'bowlWithSpoon',
  'Hakka Noodles': 'noodles',
  Vinegar: 'sake',
  'Jam, Conserve, Marmalade': 'jar',
  // Beauty & Hygiene
  'Bathing Bars & Soaps': 'soap',
  Toothpaste: 'toothbrush',
  'Antiseptics & Bandages': 'bandage',
  'Face Care': 'lotion',
  'Body Care': 'lotion',
  Lips: 'lipstick',
  'Shampoo & Conditioner': 'lotion',
  'Shaving Care': 'razor',
  'Makeup Accessories': 'mirror',
  'Hand Wash & Sanitizers': 'soap',
  "Women's Deodorants": 'dash',
  'Sanitary Napkins': 'blossom',
  "Men's Deodorants": 'dash',
  Eyes: 'eye',
  Mouthwash: 'tooth',
  'Shower Gel & Body Wash': 'bubbles',
  'Hair Oil & Serum': 'droplet',
  'Face Masks & Safety Gears': ['mask', []],
  'Bath & Shower': 'bathtub',
  'Hair & Scalp Treatment': 'lotion',
  'Hair Color': 'haircut',
  'Hair Care & Styling': 'haircut',
  'Face & Body': 'lotion',
  Face: 'mirror',
  Nails: 'nailPolish',
  'Bathing Accessories': 'bathtub',
  'Everyday Medicine': 'pill',
  'Lip Care': 'kissMark',
  'Sexual Wellness': ['heart', []],
  Aromatherapy: 'droplet',
  Toothbrush: 'toothbrush',
  Perfume: 'bouquet',
  Ayurveda: 'herb',
  Talc: 'lotion',
  'Electric Toothbrush': 'toothbrush',
  'Tampons & Menstrual Cups': 'blossom',
  'Supplements & Proteins': 'pill',
  'Hair Removal': 'razor',
  'Eau De Parfum': ['bouquet', []],
  'Body Sprays & Mists': 'dash',
  'Adult Diapers': 'safetyPin',
  'Eye Care': 'eye',
  'Eau De Toilette': ['bouquet', []],
  'Moustache & Beard Care': 'beard',
  'Tools & Accessories': 'comb',
  'Eau De Cologne': ['bouquet', []],
  'Bath Salts & Oils': 'bathtub',
  Attar: ['bouquet', []],
  'Intimate Wash & Care': 'blossom',
  'Gift Sets': 'gift',
  'Body Scrubs & Exfoliants': 'facial',
  'Makeup Kits & Gift Sets': 'gift',
  'Hair Styling': 'haircut',
  'Cotton & Ear Buds': 'cloud',
  'Combos & Gift Sets': 'gift',
  // Gourmet & World Food
  'Extra Virgin Olive Oil': 'olive',
  'Pastas & Spaghetti': 'spaghetti',
  'Dry Fruits & Berries': 'blueberries',
  'Roasted Seeds & Nuts': 'peanuts',
  'Nachos & Chips': 'fries',
  'Pure, Pomace Olive Oil': 'olive',
  'Mustard & Cheese Sauces': 'jar',
  'Healthy, Baked Snacks': 'pretzel',
  'Jams, Marmalade, Spreads': 'jar',
  'Luxury Chocolates, Gifts': 'chocolate',
  'Salad Dressings': 'salad',
  'Olive, Jalapeno, Gherkin': ['olive', ['produce']],
  'Hummus, Cheese, Salsa Dip': 'jar',
  'Organic & Cold Press Oil': 'oil',
  'International Chocolates': 'chocolate',
  'Quinoa & Grains': 'wheat',
  'Cereal & Granola Bars': ['chocolate', []],
  'Canola & Rapeseed Oil': 'oil',
  'Beans & Pulses': 'beans',
  'Cooking Chocolate, Cocoa': 'chocolate',
  'Flours & Pre-Mixes': 'wheat',
  'Imported Noodles': 'noodles',
  'Gourmet Tea & Tea Bags': 'teacup',
  'Chocolate, Peanut Spread': 'jar',
  'Health Drinks': 'milk',
  'Honey & Maple Syrup': 'honey',
  'Aerated, Still, Sparkling': 'cupWithStraw',
  'Muesli & Rice Cakes': 'bowlWithSpoon',
  'Thai & Asian Sauces': 'jar',
  'Herbs, Seasonings & Rubs': 'herb',
  'Gourmet Juices & Drinks': 'juiceBox',
  'Balsamic & Cider Vinegar': 'sake',
  'Coffee & Pre-Mix': 'hotBeverage',
  'Marshmallow, Candy, Jelly': 'candy',
  'Flavoured & Greek Yogurt': 'bowlWithSpoon',
  'Curry Paste, Coconut Milk': 'coconut',
  'Exotic Sugar & Salt': 'salt',
  'Milk & Soya Drinks': 'milk',
  'Non-Alcoholic Beer, Wine': 'wine',
  'Imported Oats & Porridge': 'bowlWithSpoon',
  'Tomatoes & Vegetables': 'can',
  // Kitchen, Garden & Pets
  'Battery & Electrical': 'battery',
  'Pet Meals & Treats': ['dog', ['pets']],
  'Water & Fridge Bottles': ['sake', []],
  'Knives & Peelers': 'knife',
  'Containers Sets': ['jar', []],
  'CFL & Led Bulbs': ['bulb', []],
  'Wall Hooks & Hangers': 'hook',
  'Tawa & Sauce Pan': 'cooking',
  'Plates & Bowls': 'plate',
  'Cookware Sets': 'cooking',
  Glassware: 'tumbler',
  'Choppers & Graters': 'knife',
  'Steel Storage Containers': ['jar', []],
  'Pressure Cookers': 'potOfFood',
  'Cups, Mugs & Tumblers': 'hotBeverage',
  'Lunch Boxes': ['bento', []],
  'Cook And Serve': 'shallowPan',
  'Plates & Tumblers': 'plate',
  Umbrella: 'umbrella',
  'Bakeware Accessories': 'cupcake',
  'Racks & Holders': 'basket',
  'Kadai & Fry Pans': 'cooking',
  Casserole: 'shallowPan',
  'Kitchen Tools & Other Accessories': 'spoon',
  'Baking Tools & Brushes': 'cupcake',
  'Vacuum Flask': ['sake', []],
  'Microwavable Cookware': 'shallowPan',
  'Gas Stove': ['fire', []],
  'Pet Cleaning & Grooming': ['paws', []],
  'Dinner Sets': 'plate',
  'Bakeware Moulds, Cutters': 'cupcake',
  'Pots, Planters & Trays': ['pottedPlant', []],
  'Copper Utensils': 'amphora',
  'Bowls & Vessels': 'bowlWithSpoon',
  'Strainer, Ladle, Spatula': 'spoon',
  'Gardening Tools': ['seedling', ['garden']],
  'Fertilizers & Pesticides': ['seedling', []],
  'Steel Lunch Boxes': ['bento', []],
  'Cloth Dryer & Iron Table': 'tShirt',
  'Cutlery, Spoon & Fork': 'cutlery',
  'Pet Collars & Leashes': ['guideDog', []],
  Lighters: 'fire',
  'Pet Feeding Support': ['paws', []],
  // Baby Care
  Diapers: ['baby', []],
  'Baby Creams & Lotions': 'lotion',
  'Baby Powder': 'lotion',
  'Baby Wipes': 'toiletPaper',
  'Baby Oil & Shampoo': 'lotion',
  'Baby Laundry': 'bubbles',
  'Baby Gift Sets': 'teddyBear',
  'Baby Health': 'babyBottle',
  'Baby Bath': 'bathtub',
  'Combs, Brushes, Clippers': 'comb',
  'Maternity Personal Care': 'pregnant',
  'Baby Oral Care': 'toothbrush',
}

/** How a picture was chosen: a keyword of the product's own name, or one of the fallbacks. */
export type ArtMatch = 'name' | 'sub category' | 'category' | 'fallback'

export interface ArtChoice {
  art: ArtName
  /** File name inside ART_DIR. */
  file: string
  match: ArtMatch
}

const choice = (art: ArtName, match: ArtMatch): ArtChoice => ({ art, file: ART[art], match })

function firstMatch(text: string, sets: readonly RuleSet[]): ArtName | null {
  const normalized = normalizeForMatch(text)
  for (const set of sets) {
    for (const rule of RULE_SETS[set]) if (rule.pattern.test(normalized)) return rule.art
  }
  return null
}

function subCategoryEntry(name: string): { art: ArtName; rules?: RuleSet[] } | undefined {
  const entry = SUB_CATEGORIES[name]
  if (!entry) return undefined
  return typeof entry === 'string' ? { art: entry } : { art: entry[0], rules: entry[1] }
}

/** The picture of a category: its own, else the cart. */
export function artworkForCategory(category: string): ArtChoice {
  const known = CATEGORIES[category]
  return known ? choice(known.art, 'category') : choice('cart', 'fallback')
}

/** The picture of a sub category: its own, else read from its name, else its category's. */
export function artworkForSubCategory(subCategory: string, category: string): ArtChoice {
  const entry = subCategoryEntry(subCategory)
  if (entry) return choice(entry.art, 'sub category')
  const rules = CATEGORIES[category]?.rules ?? []
  const byName = firstMatch(subCategory, rules)
  if (byName) return choice(byName, 'name')
  return artworkForCategory(category)
}

/**
 * The picture of a product: a keyword of its name (read with its category's rule sets, or its sub
 * category's where those differ), else its sub category's, else its category's, else the cart.
 * Deterministic: the same three strings always give the same picture.
 */
export function artworkForProduct(product: { name: string; subCategory: string; category: string }): ArtChoice {
  const entry = subCategoryEntry(product.subCategory)
  const rules = entry?.rules ?? CATEGORIES[product.category]?.rules ?? []
  const byName = firstMatch(product.name, rules)
  if (byName) return choice(byName, 'name')
  if (entry) return choice(entry.art, 'sub category')
  const category = CATEGORIES[product.category]
  if (category) return choice(category.art, 'category')
  return choice('cart', 'fallback')
}

/** Every file the mapping can return (what api/db/seed/art/ must hold). */
export function allArtworkFiles(): string[] {
  return [...new Set(Object.values(ART))].sort()
}
