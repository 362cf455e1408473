/**
 * Country data compiled from `i18n-iso-countries` (its alpha-3 codes and English names) by `scripts/countryNames.ts`,
 * for the countries libphonenumber has a plan for. Generated: do not edit; re-run the script after an update.
 * Over 400 lines: data, one entry a line.
 */

/** ISO 3166 alpha-3 code → alpha-2 code. */
export const alpha3: Readonly<Record<string, string>> = {
  "ABW": "AW",
  "AFG": "AF",
  "AGO": "AO",
  "AIA": "AI",
  "ALA": "AX",
  "ALB": "AL",
  "AND": "AD",
  "ARE": "AE",
  "ARG": "AR",
  "ARM": "AM",
  "ASM": "AS",
  "ATG": "AG",
  "AUS": "AU",
  "AUT": "AT",
  "AZE": "AZ",
  "BDI": "BI",
  "BEL": "BE",
  "BEN": "BJ",
  "BES": "BQ",
  "BFA": "BF",
  "BGD": "BD",
  "BGR": "BG",
  "BHR": "BH",
  "BHS": "BS",
  "BIH": "BA",
  "BLM": "BL",
  "BLR": "BY",
  "BLZ": "BZ",
  "BMU": "BM",
  "BOL": "BO",
  "BRA": "BR",
  "BRB": "BB",
  "BRN": "BN",
  "BTN": "BT",
  "BWA": "BW",
  "CAF": "CF",
  "CAN": "CA",
  "CCK": "CC",
  "CHE": "CH",
  "CHL": "CL",
  "CHN": "CN",
  "CIV": "CI",
  "CMR": "CM",
  "COD": "CD",
  "COG": "CG",
  "COK": "CK",
  "COL": "CO",
  "COM": "KM",
  "CPV": "CV",
  "CRI": "CR",
  "CUB": "CU",
  "CUW": "CW",
  "CXR": "CX",
  "CYM": "KY",
  "CYP": "CY",
  "CZE": "CZ",
  "DEU": "DE",
  "DJI": "DJ",
  "DMA": "DM",
  "DNK": "DK",
  "DOM": "DO",
  "DZA": "DZ",
  "ECU": "EC",
  "EGY": "EG",
  "ERI": "ER",
  "ESH": "EH",
  "ESP": "ES",
  "EST": "EE",
  "ETH": "ET",
  "FIN": "FI",
  "FJI": "FJ",
  "FLK": "FK",
  "FRA": "FR",
  "FRO": "FO",
  "FSM": "FM",
  "GAB": "GA",
  "GBR": "GB",
  "GEO": "GE",
  "GGY": "GG",
  "GHA": "GH",
  "GIB": "GI",
  "GIN": "GN",
  "GLP": "GP",
  "GMB": "GM",
  "GNB": "GW",
  "GNQ": "GQ",
  "GRC": "GR",
  "GRD": "GD",
  "GRL": "GL",
  "GTM": "GT",
  "GUF": "GF",
  "GUM": "GU",
  "GUY": "GY",
  "HKG": "HK",
  "HND": "HN",
  "HRV": "HR",
  "HTI": "HT",
  "HUN": "HU",
  "IDN": "ID",
  "IMN": "IM",
  "IND": "IN",
  "IOT": "IO",
  "IRL": "IE",
  "IRN": "IR",
  "IRQ": "IQ",
  "ISL": "IS",
  "ISR": "IL",
  "ITA": "IT",
  "JAM": "JM",
  "JEY": "JE",
  "JOR": "JO",
  "JPN": "JP",
  "KAZ": "KZ",
  "KEN": "KE",
  "KGZ": "KG",
  "KHM": "KH",
  "KIR": "KI",
  "KNA": "KN",
  "KOR": "KR",
  "KWT": "KW",
  "LAO": "LA",
  "LBN": "LB",
  "LBR": "LR",
  "LBY": "LY",
  "LCA": "LC",
  "LIE": "LI",
  "LKA": "LK",
  "LSO": "LS",
  "LTU": "LT",
  "LUX": "LU",
  "LVA": "LV",
  "MAC": "MO",
  "MAF": "MF",
  "MAR": "MA",
  "MCO": "MC",
  "MDA": "MD",
  "MDG": "MG",
  "MDV": "MV",
  "MEX": "MX",
  "MHL": "MH",
  "MKD": "MK",
  "MLI": "ML",
  "MLT": "MT",
  "MMR": "MM",
  "MNE": "ME",
  "MNG": "MN",
  "MNP": "MP",
  "MOZ": "MZ",
  "MRT": "MR",
  "MSR": "MS",
  "MTQ": "MQ",
  "MUS": "MU",
  "MWI": "MW",
  "MYS": "MY",
  "MYT": "YT",
  "NAM": "NA",
  "NCL": "NC",
  "NER": "NE",
  "NFK": "NF",
  "NGA": "NG",
  "NIC": "NI",
  "NIU": "NU",
  "NLD": "NL",
  "NOR": "NO",
  "NPL": "NP",
  "NRU": "NR",
  "NZL": "NZ",
  "OMN": "OM",
  "PAK": "PK",
  "PAN": "PA",
  "PER": "PE",
  "PHL": "PH",
  "PLW": "PW",
  "PNG": "PG",
  "POL": "PL",
  "PRI": "PR",
  "PRK": "KP",
  "PRT": "PT",
  "PRY": "PY",
  "PSE": "PS",
  "PYF": "PF",
  "QAT": "QA",
  "REU": "RE",
  "ROU": "RO",
  "RUS": "RU",
  "RWA": "RW",
  "SAU": "SA",
  "SDN": "SD",
  "SEN": "SN",
  "SGP": "SG",
  "SHN": "SH",
  "SJM": "SJ",
  "SLB": "SB",
  "SLE": "SL",
  "SLV": "SV",
  "SMR": "SM",
  "SOM": "SO",
  "SPM": "PM",
  "SRB": "RS",
  "SSD": "SS",
  "STP": "ST",
  "SUR": "SR",
  "SVK": "SK",
  "SVN": "SI",
  "SWE": "SE",
  "SWZ": "SZ",
  "SXM": "SX",
  "SYC": "SC",
  "SYR": "SY",
  "TCA": "TC",
  "TCD": "TD",
  "TGO": "TG",
  "THA": "TH",
  "TJK": "TJ",
  "TKL": "TK",
  "TKM": "TM",
  "TLS": "TL",
  "TON": "TO",
  "TTO": "TT",
  "TUN": "TN",
  "TUR": "TR",
  "TUV": "TV",
  "TWN": "TW",
  "TZA": "TZ",
  "UGA": "UG",
  "UKR": "UA",
  "URY": "UY",
  "USA": "US",
  "UZB": "UZ",
  "VAT": "VA",
  "VCT": "VC",
  "VEN": "VE",
  "VGB": "VG",
  "VIR": "VI",
  "VNM": "VN",
  "VUT": "VU",
  "WLF": "WF",
  "WSM": "WS",
  "XKK": "XK",
  "YEM": "YE",
  "ZAF": "ZA",
  "ZMB": "ZM",
  "ZWE": "ZW"
}

/** Alpha-2 code → English names, the official one first, then common short forms. */
export const english: Readonly<Record<string, ReadonlyArray<string>>> = {
  "AD": [
    "Andorra"
  ],
  "AE": [
    "United Arab Emirates",
    "UAE"
  ],
  "AF": [
    "Afghanistan"
  ],
  "AG": [
    "Antigua and Barbuda"
  ],
  "AI": [
    "Anguilla"
  ],
  "AL": [
    "Albania"
  ],
  "AM": [
    "Armenia"
  ],
  "AO": [
    "Angola"
  ],
  "AR": [
    "Argentina"
  ],
  "AS": [
    "American Samoa"
  ],
  "AT": [
    "Austria"
  ],
  "AU": [
    "Australia"
  ],
  "AW": [
    "Aruba"
  ],
  "AX": [
    "Åland Islands",
    "Aland Islands"
  ],
  "AZ": [
    "Azerbaijan"
  ],
  "BA": [
    "Bosnia and Herzegovina"
  ],
  "BB": [
    "Barbados"
  ],
  "BD": [
    "Bangladesh"
  ],
  "BE": [
    "Belgium"
  ],
  "BF": [
    "Burkina Faso"
  ],
  "BG": [
    "Bulgaria"
  ],
  "BH": [
    "Bahrain"
  ],
  "BI": [
    "Burundi"
  ],
  "BJ": [
    "Benin"
  ],
  "BL": [
    "Saint Barthélemy"
  ],
  "BM": [
    "Bermuda"
  ],
  "BN": [
    "Brunei Darussalam"
  ],
  "BO": [
    "Bolivia"
  ],
  "BQ": [
    "Bonaire, Sint Eustatius and Saba"
  ],
  "BR": [
    "Brazil"
  ],
  "BS": [
    "Bahamas"
  ],
  "BT": [
    "Bhutan"
  ],
  "BW": [
    "Botswana"
  ],
  "BY": [
    "Belarus"
  ],
  "BZ": [
    "Belize"
  ],
  "CA": [
    "Canada"
  ],
  "CC": [
    "Cocos (Keeling) Islands"
  ],
  "CD": [
    "Democratic Republic of the Congo",
    "Congo"
  ],
  "CF": [
    "Central African Republic"
  ],
  "CG": [
    "Republic of the Congo",
    "Congo"
  ],
  "CH": [
    "Switzerland"
  ],
  "CI": [
    "Cote d'Ivoire",
    "Côte d'Ivoire",
    "Ivory Coast"
  ],
  "CK": [
    "Cook Islands"
  ],
  "CL": [
    "Chile"
  ],
  "CM": [
    "Cameroon"
  ],
  "CN": [
    "People's Republic of China",
    "China"
  ],
  "CO": [
    "Colombia"
  ],
  "CR": [
    "Costa Rica"
  ],
  "CU": [
    "Cuba"
  ],
  "CV": [
    "Cape Verde"
  ],
  "CW": [
    "Curaçao"
  ],
  "CX": [
    "Christmas Island"
  ],
  "CY": [
    "Cyprus"
  ],
  "CZ": [
    "Czech Republic",
    "Czechia"
  ],
  "DE": [
    "Germany"
  ],
  "DJ": [
    "Djibouti"
  ],
  "DK": [
    "Denmark"
  ],
  "DM": [
    "Dominica"
  ],
  "DO": [
    "Dominican Republic"
  ],
  "DZ": [
    "Algeria"
  ],
  "EC": [
    "Ecuador"
  ],
  "EE": [
    "Estonia"
  ],
  "EG": [
    "Egypt"
  ],
  "EH": [
    "Western Sahara"
  ],
  "ER": [
    "Eritrea"
  ],
  "ES": [
    "Spain"
  ],
  "ET": [
    "Ethiopia"
  ],
  "FI": [
    "Finland"
  ],
  "FJ": [
    "Fiji"
  ],
  "FK": [
    "Falkland Islands (Malvinas)"
  ],
  "FM": [
    "Micronesia, Federated States of"
  ],
  "FO": [
    "Faroe Islands"
  ],
  "FR": [
    "France"
  ],
  "GA": [
    "Gabon"
  ],
  "GB": [
    "United Kingdom",
    "UK",
    "Great Britain"
  ],
  "GD": [
    "Grenada"
  ],
  "GE": [
    "Georgia"
  ],
  "GF": [
    "French Guiana"
  ],
  "GG": [
    "Guernsey"
  ],
  "GH": [
    "Ghana"
  ],
  "GI": [
    "Gibraltar"
  ],
  "GL": [
    "Greenland"
  ],
  "GM": [
    "Republic of The Gambia",
    "The Gambia",
    "Gambia"
  ],
  "GN": [
    "Guinea"
  ],
  "GP": [
    "Guadeloupe"
  ],
  "GQ": [
    "Equatorial Guinea"
  ],
  "GR": [
    "Greece"
  ],
  "GT": [
    "Guatemala"
  ],
  "GU": [
    "Guam"
  ],
  "GW": [
    "Guinea-Bissau"
  ],
  "GY": [
    "Guyana"
  ],
  "HK": [
    "Hong Kong"
  ],
  "HN": [
    "Honduras"
  ],
  "HR": [
    "Croatia"
  ],
  "HT": [
    "Haiti"
  ],
  "HU": [
    "Hungary"
  ],
  "ID": [
    "Indonesia"
  ],
  "IE": [
    "Ireland"
  ],
  "IL": [
    "Israel"
  ],
  "IM": [
    "Isle of Man"
  ],
  "IN": [
    "India"
  ],
  "IO": [
    "British Indian Ocean Territory"
  ],
  "IQ": [
    "Iraq"
  ],
  "IR": [
    "Islamic Republic of Iran",
    "Iran"
  ],
  "IS": [
    "Iceland"
  ],
  "IT": [
    "Italy"
  ],
  "JE": [
    "Jersey"
  ],
  "JM": [
    "Jamaica"
  ],
  "JO": [
    "Jordan"
  ],
  "JP": [
    "Japan"
  ],
  "KE": [
    "Kenya"
  ],
  "KG": [
    "Kyrgyzstan"
  ],
  "KH": [
    "Cambodia"
  ],
  "KI": [
    "Kiribati"
  ],
  "KM": [
    "Comoros"
  ],
  "KN": [
    "Saint Kitts and Nevis"
  ],
  "KP": [
    "North Korea"
  ],
  "KR": [
    "South Korea",
    "Korea, Republic of",
    "Republic of Korea"
  ],
  "KW": [
    "Kuwait"
  ],
  "KY": [
    "Cayman Islands"
  ],
  "KZ": [
    "Kazakhstan"
  ],
  "LA": [
    "Lao People's Democratic Republic"
  ],
  "LB": [
    "Lebanon"
  ],
  "LC": [
    "Saint Lucia"
  ],
  "LI": [
    "Liechtenstein"
  ],
  "LK": [
    "Sri Lanka"
  ],
  "LR": [
    "Liberia"
  ],
  "LS": [
    "Lesotho"
  ],
  "LT": [
    "Lithuania"
  ],
  "LU": [
    "Luxembourg"
  ],
  "LV": [
    "Latvia"
  ],
  "LY": [
    "Libya"
  ],
  "MA": [
    "Morocco"
  ],
  "MC": [
    "Monaco"
  ],
  "MD": [
    "Moldova, Republic of"
  ],
  "ME": [
    "Montenegro"
  ],
  "MF": [
    "Saint Martin (French part)"
  ],
  "MG": [
    "Madagascar"
  ],
  "MH": [
    "Marshall Islands"
  ],
  "MK": [
    "The Republic of North Macedonia",
    "North Macedonia"
  ],
  "ML": [
    "Mali"
  ],
  "MM": [
    "Myanmar"
  ],
  "MN": [
    "Mongolia"
  ],
  "MO": [
    "Macao"
  ],
  "MP": [
    "Northern Mariana Islands"
  ],
  "MQ": [
    "Martinique"
  ],
  "MR": [
    "Mauritania"
  ],
  "MS": [
    "Montserrat"
  ],
  "MT": [
    "Malta"
  ],
  "MU": [
    "Mauritius"
  ],
  "MV": [
    "Maldives"
  ],
  "MW": [
    "Malawi"
  ],
  "MX": [
    "Mexico"
  ],
  "MY": [
    "Malaysia"
  ],
  "MZ": [
    "Mozambique"
  ],
  "NA": [
    "Namibia"
  ],
  "NC": [
    "New Caledonia"
  ],
  "NE": [
    "Niger"
  ],
  "NF": [
    "Norfolk Island"
  ],
  "NG": [
    "Nigeria"
  ],
  "NI": [
    "Nicaragua"
  ],
  "NL": [
    "Netherlands",
    "The Netherlands",
    "Netherlands (Kingdom of the)"
  ],
  "NO": [
    "Norway"
  ],
  "NP": [
    "Nepal"
  ],
  "NR": [
    "Nauru"
  ],
  "NU": [
    "Niue"
  ],
  "NZ": [
    "New Zealand"
  ],
  "OM": [
    "Oman"
  ],
  "PA": [
    "Panama"
  ],
  "PE": [
    "Peru"
  ],
  "PF": [
    "French Polynesia"
  ],
  "PG": [
    "Papua New Guinea"
  ],
  "PH": [
    "Philippines"
  ],
  "PK": [
    "Pakistan"
  ],
  "PL": [
    "Poland"
  ],
  "PM": [
    "Saint Pierre and Miquelon"
  ],
  "PR": [
    "Puerto Rico"
  ],
  "PS": [
    "State of Palestine",
    "Palestine"
  ],
  "PT": [
    "Portugal"
  ],
  "PW": [
    "Palau"
  ],
  "PY": [
    "Paraguay"
  ],
  "QA": [
    "Qatar"
  ],
  "RE": [
    "Reunion"
  ],
  "RO": [
    "Romania"
  ],
  "RS": [
    "Serbia"
  ],
  "RU": [
    "Russian Federation",
    "Russia"
  ],
  "RW": [
    "Rwanda"
  ],
  "SA": [
    "Saudi Arabia"
  ],
  "SB": [
    "Solomon Islands"
  ],
  "SC": [
    "Seychelles"
  ],
  "SD": [
    "Sudan"
  ],
  "SE": [
    "Sweden"
  ],
  "SG": [
    "Singapore"
  ],
  "SH": [
    "Saint Helena"
  ],
  "SI": [
    "Slovenia"
  ],
  "SJ": [
    "Svalbard and Jan Mayen"
  ],
  "SK": [
    "Slovakia"
  ],
  "SL": [
    "Sierra Leone"
  ],
  "SM": [
    "San Marino"
  ],
  "SN": [
    "Senegal"
  ],
  "SO": [
    "Somalia"
  ],
  "SR": [
    "Suriname"
  ],
  "SS": [
    "South Sudan"
  ],
  "ST": [
    "Sao Tome and Principe"
  ],
  "SV": [
    "El Salvador"
  ],
  "SX": [
    "Sint Maarten (Dutch part)"
  ],
  "SY": [
    "Syrian Arab Republic"
  ],
  "SZ": [
    "Eswatini"
  ],
  "TC": [
    "Turks and Caicos Islands"
  ],
  "TD": [
    "Chad"
  ],
  "TG": [
    "Togo"
  ],
  "TH": [
    "Thailand"
  ],
  "TJ": [
    "Tajikistan"
  ],
  "TK": [
    "Tokelau"
  ],
  "TL": [
    "Timor-Leste"
  ],
  "TM": [
    "Turkmenistan"
  ],
  "TN": [
    "Tunisia"
  ],
  "TO": [
    "Tonga"
  ],
  "TR": [
    "Türkiye",
    "Turkey"
  ],
  "TT": [
    "Trinidad and Tobago"
  ],
  "TV": [
    "Tuvalu"
  ],
  "TW": [
    "Taiwan, Province of China",
    "Taiwan"
  ],
  "TZ": [
    "United Republic of Tanzania",
    "Tanzania"
  ],
  "UA": [
    "Ukraine"
  ],
  "UG": [
    "Uganda"
  ],
  "US": [
    "United States of America",
    "United States",
    "USA",
    "U.S.A.",
    "US",
    "U.S."
  ],
  "UY": [
    "Uruguay"
  ],
  "UZ": [
    "Uzbekistan"
  ],
  "VA": [
    "Holy See (Vatican City State)"
  ],
  "VC": [
    "Saint Vincent and the Grenadines"
  ],
  "VE": [
    "Venezuela"
  ],
  "VG": [
    "Virgin Islands, British"
  ],
  "VI": [
    "Virgin Islands, U.S."
  ],
  "VN": [
    "Vietnam"
  ],
  "VU": [
    "Vanuatu"
  ],
  "WF": [
    "Wallis and Futuna"
  ],
  "WS": [
    "Samoa"
  ],
  "XK": [
    "Kosovo"
  ],
  "YE": [
    "Yemen"
  ],
  "YT": [
    "Mayotte"
  ],
  "ZA": [
    "South Africa"
  ],
  "ZM": [
    "Zambia"
  ],
  "ZW": [
    "Zimbabwe"
  ]
}
