/**
 * The header names that mean each field of a contact file, as exporters and people write them: address books', shops'
 * and mailing tools' columns, in the languages and scripts users export from. Data for `columns.ts`, which compares
 * them through its `key` (any case, spacing, punctuation or accents).
 */
import type { Field } from "./columns.ts"

/** Header names that mean each field. */
export const aliases: { readonly [F in Field]: ReadonlyArray<string> } = {
  msisdn: [
    "msisdn", "phone", "phonenumber", "phoneno", "mobile", "mobilenumber", "mobileno", "mobilephone",
    "mobilephonenumber", "cell", "cellphone", "cellnumber", "cellular", "number", "telephone", "telephonenumber",
    "tel", "telno", "telnumber", "contactnumber", "gsm", "sms", "smsnumber", "handy", "telefon", "telefono",
    "portable", "numero", "whatsapp", "celular", "movil", "telefone", "telemovel", "telefonnummer", "mobilnummer",
    "handynummer", "mobiel", "телефон", "cellulare", "e164", "contactno", "telefoon", "telefoonnummer", "mobieletelefoon",
    "mobielnummer", "mobiltelefon", "iphone", "particular", "mobiltelefonnummer", "mobilfunknummer", "handynr", "mobilnr", "telnr", "telefonnr",
    // vCard's property with its type, as converters name the column (`TEL;TYPE=CELL`).
    "teltypecell", "telcell", "teltypecellvoice", "teltypevoicecell", "teltypehome", "teltypework", "teltypevoice",
    // Address books' exports: Outlook's phone columns, Google Contacts' `Phone 1 - Value`.
    "primaryphone", "homephone", "businessphone", "workphone", "otherphone", "phone1value", "phone2value", "phone3value",
    // Other languages' address books and forms: Japanese, Chinese (simplified and traditional), Korean, Arabic, Russian,
    // Spanish and French phrases.
    "携帯電話", "携帯電話番号", "携帯", "携帯番号", "電話", "電話番号", "手机", "手机号", "手机号码", "电话", "电话号码", "移动电话", "手機",
    "手機號碼", "電話號碼", "휴대폰", "휴대전화", "핸드폰", "전화", "전화번호", "휴대폰번호", "هاتف", "جوال", "رقم الجوال",
    "رقم الهاتف", "موبايل", "мобильный", "мобильный телефон", "номер телефона", "número de teléfono", "teléfono móvil",
    "número de celular", "numéro de téléphone", "téléphone portable"
  ],
  first_name: [
    "firstname", "first", "fname", "givenname", "forename", "forenames", "prenom", "vorname", "nombre", "nome", "имя",
    "voornaam", "名", "이름", "الاسم الأول"
  ],
  last_name: [
    "lastname", "last", "lname", "surname", "familyname", "nom", "nachname", "apellido", "apellidos", "cognome",
    "sobrenome", "фамилия", "achternaam", "姓", "성", "اسم العائلة"
  ],
  name: ["name", "fullname", "contactname", "displayname", "氏名", "名前", "お名前", "姓名", "성명", "الاسم", "اسم", "фио"],
  country: [
    "country", "countrycode", "countryiso", "isocode", "iso", "callingcode", "countrycallingcode", "dialcode",
    "land", "pays", "pais", "countryname", "nation", "countryiso2", "countryiso3", "iso2", "iso3",
    "countryalpha2", "countryalpha3", "alpha2", "alpha3", "phonecountry", "phonecountrycode", "dialingcode",
    "diallingcode", "countrydialcode", "countrydialingcode",
    // Mailchimp's `CC` (the country it located the subscriber in): beside a national number, better than the default.
    "cc",
    // Outlook's `Country/Region` columns.
    "countryregion", "countryorregion", "homecountryregion", "businesscountryregion", "othercountryregion"
  ],
  tags: [
    "tags", "tag", "groups", "group", "lists", "list", "labels", "label", "categories", "category", "segments", "segment",
    "groupes", "gruppen", "grupos", "gruppi", "groupmembership", "etiquetas", "etiketten", "kategorien", "kategorie",
    "categorias", "categorieen", "categorie"
  ],
  status: ["status"],
  monitoring: ["monitoring"],
  // A shop's or a mailing tool's record of whether the person agreed to be texted (Shopify's `Accepts SMS Marketing`).
  sms_consent: [
    "acceptssmsmarketing", "smsmarketing", "smsconsent", "smsmarketingconsent", "smsoptin", "smsoptedin", "mobileoptin",
    "textoptin", "acceptstextmessages", "smssubscribed", "smssubscription"
  ]
}
