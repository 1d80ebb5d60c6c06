/** Demo customer names and message texts in the scripts the product serves: Latin, Khmer, Bengali, Urdu. */
/** First and last names per script, so a customer's name never mixes scripts. */
export const NAMES_BY_SCRIPT = [
  {
    first: [
      'Maria',
      'Juan',
      'Ana',
      'Carlos',
      'Siti',
      'Budi',
      'Dewi',
      'Jose',
      'Liza',
      'Mark',
      'Grace',
      'Paolo',
    ],
    last: ['Santos', 'Reyes', 'Cruz', 'Garcia', 'Wijaya', 'Putri', 'Lopez', 'Torres', 'Hidayat', 'Mendoza'],
  },
  { first: ['សុខា', 'ដារ៉ា', 'សុភាព', 'វិចិត្រា', 'ចាន់ថា'], last: ['សុខ', 'ចាន់', 'គឹម', 'ហេង'] },
  { first: ['রহিম', 'ফাতেমা', 'সুমন', 'নুসরাত', 'তানভীর'], last: ['আহমেদ', 'রহমান', 'হোসেন', 'ইসলাম'] },
  { first: ['عائشہ', 'علی', 'فاطمہ', 'حسن', 'زینب'], last: ['خان', 'احمد', 'ملک', 'قریشی'] },
] as const

export const CUSTOMER_TEXTS = [
  'Hi! Is this still available?',
  'How much is the delivery to Cebu?',
  'Do you have it in size M?',
  'Thank you, received it today 😊',
  '¿Tienen envío a Guadalajara?',
  'Apakah barang ini masih ada?',
  'Magkano po ito?',
  'តើទំនិញនេះនៅមានទេ?',
  'សូមអរគុណច្រើន!',
  'ডেলিভারি কবে হবে?',
  'দাম কত?',
  'کیا یہ ابھی دستیاب ہے؟',
  'شکریہ، آرڈر مل گیا',
  'Can I pay cash on delivery?',
  'What time do you open tomorrow?',
] as const

export const PAGE_TEXTS = [
  'Yes, it is available. Shall I reserve one for you?',
  'Delivery takes 2–3 days.',
  'Thank you for your order!',
  'We open at 9 am.',
  'សូមអរគុណ! យើងនឹងផ្ញើជូនឆាប់ៗ។',
  'ধন্যবাদ! আমরা শীঘ্রই পাঠাব।',
  'شکریہ! ہم جلد بھیج دیں گے۔',
] as const
