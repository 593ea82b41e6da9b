import Foundation

/// Default grammar for the words a child's first boards and sentences use, in pt-BR, es and ca: the
/// subject pronouns, the demo's verbs and a few more of the core vocabulary, and the demo's adjectives.
/// A symbol whose text is one of these forms gets the word's grammar until its clinician corrects it
/// on the symbol's page (`WordFormStore`). Written by hand and checked against the grammars: no
/// conjugation library available here covers Catalan well (see docs/decisions/README.md).
enum WordLexicon {
    /// The word `text` belongs to in `language` ("pt-BR", "es", "ca"), found by any of its forms.
    static func lookup(_ text: String, language: String?) -> WordForms? {
        guard let language else { return nil }
        return index[language]?[text.trimmingCharacters(in: .whitespacesAndNewlines).lowercased()]
    }

    private static func pronoun(_ word: String, _ person: Int, _ number: WordForms.Number, _ gender: WordForms.Gender? = nil) -> WordForms {
        WordForms(wordClass: .pronoun, person: person, number: number, gender: gender, forms: ["pronoun": word])
    }

    /// infinitive, then 1s 2s 3s 1p 2p 3p.
    private static func verb(_ forms: String) -> WordForms {
        let parts = forms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return WordForms(wordClass: .verb, forms: Dictionary(uniqueKeysWithValues: zip(WordForms.verbKeys, parts)))
    }

    /// ms fs mp fp.
    private static func adjective(_ forms: String) -> WordForms {
        let parts = forms.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) }
        return WordForms(wordClass: .adjective, forms: Dictionary(uniqueKeysWithValues: zip(WordForms.nominalKeys, parts)))
    }

    private static func noun(_ word: String, _ gender: WordForms.Gender, _ number: WordForms.Number = .singular) -> WordForms {
        WordForms(wordClass: .noun, person: 3, number: number, gender: gender, forms: [number == .singular ? "\(gender.rawValue)s" : "\(gender.rawValue)p": word])
    }

    /// A noun with its singular and plural; found by either, it is of that number ("carros": plural).
    private static func noun(_ singular: String, _ plural: String, _ gender: WordForms.Gender) -> WordForms {
        WordForms(wordClass: .noun, person: 3, number: .singular, gender: gender,
                  forms: ["\(gender.rawValue)s": singular, "\(gender.rawValue)p": plural])
    }

    static let words: [String: [WordForms]] = [
        "pt-BR": [
            pronoun("eu", 1, .singular), pronoun("tu", 2, .singular), pronoun("você", 3, .singular),
            pronoun("ele", 3, .singular, .masculine), pronoun("ela", 3, .singular, .feminine), pronoun("nós", 1, .plural),
            pronoun("a gente", 3, .singular), pronoun("vocês", 3, .plural), pronoun("eles", 3, .plural, .masculine),
            pronoun("elas", 3, .plural, .feminine),
            noun("mamãe", .feminine), noun("papai", .masculine),
            verb("querer, quero, queres, quer, queremos, quereis, querem"),
            verb("estar, estou, estás, está, estamos, estais, estão"),
            verb("terminar, terminei, terminaste, terminou, terminamos, terminastes, terminaram"),
            verb("ser, sou, és, é, somos, sois, são"),
            verb("ir, vou, vais, vai, vamos, ides, vão"),
            verb("ter, tenho, tens, tem, temos, tendes, têm"),
            verb("poder, posso, podes, pode, podemos, podeis, podem"),
            verb("gostar, gosto, gostas, gosta, gostamos, gostais, gostam"),
            verb("precisar, preciso, precisas, precisa, precisamos, precisais, precisam"),
            verb("brincar, brinco, brincas, brinca, brincamos, brincais, brincam"),
            verb("comer, como, comes, come, comemos, comeis, comem"),
            verb("beber, bebo, bebes, bebe, bebemos, bebeis, bebem"),
            verb("dormir, durmo, dormes, dorme, dormimos, dormis, dormem"),
            verb("ver, vejo, vês, vê, vemos, vedes, veem"),
            verb("ler, leio, lês, lê, lemos, ledes, leem"),
            adjective("feliz, feliz, felizes, felizes"), adjective("triste, triste, tristes, tristes"),
            adjective("cansado, cansada, cansados, cansadas"), adjective("bravo, brava, bravos, bravas"),
            adjective("doente, doente, doentes, doentes"), adjective("contente, contente, contentes, contentes"),
            adjective("azul, azul, azuis, azuis"), adjective("bonito, bonita, bonitos, bonitas"),
            adjective("grande, grande, grandes, grandes"), adjective("pequeno, pequena, pequenos, pequenas"),
            // The starter core board set's verbs and descriptors (StarterSet).
            verb("pegar, pego, pegas, pega, pegamos, pegais, pegam"), verb("criar, crio, crias, cria, criamos, criais, criam"),
            verb("fazer, faço, fazes, faz, fazemos, fazeis, fazem"), verb("olhar, olho, olhas, olha, olhamos, olhais, olham"),
            verb("virar, viro, viras, vira, viramos, virais, viram"), verb("ajudar, ajudo, ajudas, ajuda, ajudamos, ajudais, ajudam"),
            verb("abrir, abro, abres, abre, abrimos, abris, abrem"), verb("colocar, coloco, colocas, coloca, colocamos, colocais, colocam"),
            verb("parar, paro, paras, para, paramos, parais, param"),
            adjective("bom, boa, bons, boas"), adjective("ruim, ruim, ruins, ruins"), adjective("diferente, diferente, diferentes, diferentes"),
            adjective("igual, igual, iguais, iguais"), adjective("entediado, entediada, entediados, entediadas"),
            adjective("animado, animada, animados, animadas"), adjective("calmo, calma, calmos, calmas"),
            // The demo's things (the folder board).
            noun("bola", "bolas", .feminine), noun("casa", "casas", .feminine), noun("carro", "carros", .masculine),
            noun("escola", "escolas", .feminine), noun("maçã", "maçãs", .feminine), noun("banana", "bananas", .feminine),
            noun("pão", "pães", .masculine), noun("biscoito", "biscoitos", .masculine), noun("suco", "sucos", .masculine),
            noun("leite", "leites", .masculine), noun("ursinho", "ursinhos", .masculine), noun("pizza", "pizzas", .feminine),
            noun("televisão", "televisões", .feminine), noun("bebê", "bebês", .masculine),
        ],
        "es": [
            pronoun("yo", 1, .singular), pronoun("tú", 2, .singular), pronoun("usted", 3, .singular),
            pronoun("él", 3, .singular, .masculine), pronoun("ella", 3, .singular, .feminine),
            pronoun("nosotros", 1, .plural, .masculine), pronoun("nosotras", 1, .plural, .feminine),
            pronoun("vosotros", 2, .plural, .masculine), pronoun("vosotras", 2, .plural, .feminine), pronoun("ustedes", 3, .plural),
            pronoun("ellos", 3, .plural, .masculine), pronoun("ellas", 3, .plural, .feminine),
            noun("mamá", .feminine), noun("papá", .masculine),
            verb("querer, quiero, quieres, quiere, queremos, queréis, quieren"),
            verb("estar, estoy, estás, está, estamos, estáis, están"),
            verb("terminar, terminé, terminaste, terminó, terminamos, terminasteis, terminaron"),
            verb("ser, soy, eres, es, somos, sois, son"),
            verb("ir, voy, vas, va, vamos, vais, van"),
            verb("tener, tengo, tienes, tiene, tenemos, tenéis, tienen"),
            verb("poder, puedo, puedes, puede, podemos, podéis, pueden"),
            verb("necesitar, necesito, necesitas, necesita, necesitamos, necesitáis, necesitan"),
            verb("jugar, juego, juegas, juega, jugamos, jugáis, juegan"),
            verb("comer, como, comes, come, comemos, coméis, comen"),
            verb("beber, bebo, bebes, bebe, bebemos, bebéis, beben"),
            verb("dormir, duermo, duermes, duerme, dormimos, dormís, duermen"),
            verb("ver, veo, ves, ve, vemos, veis, ven"),
            verb("leer, leo, lees, lee, leemos, leéis, leen"),
            adjective("contento, contenta, contentos, contentas"), adjective("triste, triste, tristes, tristes"),
            adjective("cansado, cansada, cansados, cansadas"), adjective("feliz, feliz, felices, felices"),
            adjective("enfadado, enfadada, enfadados, enfadadas"), adjective("enfermo, enferma, enfermos, enfermas"),
            adjective("azul, azul, azules, azules"), adjective("bonito, bonita, bonitos, bonitas"),
            adjective("grande, grande, grandes, grandes"), adjective("pequeño, pequeña, pequeños, pequeñas"),
            adjective("asustado, asustada, asustados, asustadas"),
            // The starter core board set's verbs and descriptors (StarterSet).
            verb("coger, cojo, coges, coge, cogemos, cogéis, cogen"), verb("crear, creo, creas, crea, creamos, creáis, crean"),
            verb("hacer, hago, haces, hace, hacemos, hacéis, hacen"), verb("mirar, miro, miras, mira, miramos, miráis, miran"),
            verb("girar, giro, giras, gira, giramos, giráis, giran"), verb("ayudar, ayudo, ayudas, ayuda, ayudamos, ayudáis, ayudan"),
            verb("abrir, abro, abres, abre, abrimos, abrís, abren"), verb("poner, pongo, pones, pone, ponemos, ponéis, ponen"),
            verb("parar, paro, paras, para, paramos, paráis, paran"),
            adjective("bueno, buena, buenos, buenas"), adjective("malo, mala, malos, malas"),
            adjective("diferente, diferente, diferentes, diferentes"), adjective("igual, igual, iguales, iguales"),
            adjective("aburrido, aburrida, aburridos, aburridas"), adjective("emocionado, emocionada, emocionados, emocionadas"),
            adjective("tranquilo, tranquila, tranquilos, tranquilas"),
            noun("pelota", "pelotas", .feminine), noun("casa", "casas", .feminine), noun("coche", "coches", .masculine),
            noun("escuela", "escuelas", .feminine), noun("manzana", "manzanas", .feminine), noun("plátano", "plátanos", .masculine),
            noun("pan", "panes", .masculine), noun("galleta", "galletas", .feminine), noun("zumo", "zumos", .masculine),
            noun("leche", "leches", .feminine), noun("osito", "ositos", .masculine), noun("pizza", "pizzas", .feminine),
            noun("tele", "teles", .feminine), noun("bebé", "bebés", .masculine),
        ],
        "ca": [
            pronoun("jo", 1, .singular), pronoun("tu", 2, .singular), pronoun("vostè", 3, .singular),
            pronoun("ell", 3, .singular, .masculine), pronoun("ella", 3, .singular, .feminine), pronoun("nosaltres", 1, .plural),
            pronoun("vosaltres", 2, .plural), pronoun("vostès", 3, .plural), pronoun("ells", 3, .plural, .masculine),
            pronoun("elles", 3, .plural, .feminine),
            noun("mama", .feminine), noun("papa", .masculine),
            verb("voler, vull, vols, vol, volem, voleu, volen"),
            verb("estar, estic, estàs, està, estem, esteu, estan"),
            verb("acabar, he acabat, has acabat, ha acabat, hem acabat, heu acabat, han acabat"),
            verb("ser, sóc, ets, és, som, sou, són"),
            verb("anar, vaig, vas, va, anem, aneu, van"),
            verb("tenir, tinc, tens, té, tenim, teniu, tenen"),
            verb("poder, puc, pots, pot, podem, podeu, poden"),
            verb("necessitar, necessito, necessites, necessita, necessitem, necessiteu, necessiten"),
            verb("jugar, jugo, jugues, juga, juguem, jugueu, juguen"),
            verb("menjar, menjo, menges, menja, mengem, mengeu, mengen"),
            verb("beure, bec, beus, beu, bevem, beveu, beuen"),
            verb("dormir, dormo, dorms, dorm, dormim, dormiu, dormen"),
            verb("veure, veig, veus, veu, veiem, veieu, veuen"),
            verb("llegir, llegeixo, llegeixes, llegeix, llegim, llegiu, llegeixen"),
            adjective("content, contenta, contents, contentes"), adjective("trist, trista, tristos, tristes"),
            adjective("cansat, cansada, cansats, cansades"), adjective("feliç, feliç, feliços, feliços"),
            adjective("enfadat, enfadada, enfadats, enfadades"), adjective("malalt, malalta, malalts, malaltes"),
            adjective("blau, blava, blaus, blaves"), adjective("bonic, bonica, bonics, boniques"),
            adjective("gran, gran, grans, grans"), adjective("petit, petita, petits, petites"),
            adjective("espantat, espantada, espantats, espantades"),
            // The starter core board set's verbs and descriptors (StarterSet).
            verb("agafar, agafo, agafes, agafa, agafem, agafeu, agafen"), verb("crear, creo, crees, crea, creem, creeu, creen"),
            verb("fer, faig, fas, fa, fem, feu, fan"), verb("mirar, miro, mires, mira, mirem, mireu, miren"),
            verb("girar, giro, gires, gira, girem, gireu, giren"), verb("ajudar, ajudo, ajudes, ajuda, ajudem, ajudeu, ajuden"),
            verb("obrir, obro, obres, obre, obrim, obriu, obren"), verb("posar, poso, poses, posa, posem, poseu, posen"),
            verb("parar, paro, pares, para, parem, pareu, paren"),
            adjective("bo, bona, bons, bones"), adjective("dolent, dolenta, dolents, dolentes"),
            adjective("diferent, diferent, diferents, diferents"), adjective("igual, igual, iguals, iguals"),
            adjective("avorrit, avorrida, avorrits, avorrides"), adjective("emocionat, emocionada, emocionats, emocionades"),
            adjective("tranquil, tranquil·la, tranquils, tranquil·les"),
            noun("pilota", "pilotes", .feminine), noun("casa", "cases", .feminine), noun("cotxe", "cotxes", .masculine),
            noun("escola", "escoles", .feminine), noun("poma", "pomes", .feminine), noun("plàtan", "plàtans", .masculine),
            noun("pa", "pans", .masculine), noun("galeta", "galetes", .feminine), noun("suc", "sucs", .masculine),
            noun("llet", "llets", .feminine), noun("osset", "ossets", .masculine), noun("pizza", "pizzes", .feminine),
            noun("tele", "teles", .feminine), noun("bebè", "bebès", .masculine),
        ],
    ]

    /// language → any form, lowercased → its word. The first word to claim a form keeps it, so the
    /// order above settles the rare clash (es "como", "ve"). A noun found by its plural is plural.
    private static let index: [String: [String: WordForms]] = words.mapValues { entries in
        var byForm: [String: WordForms] = [:]
        for entry in entries {
            for (key, form) in entry.forms where byForm[form.lowercased()] == nil {
                var found = entry
                if entry.wordClass == .noun, let number = key.last.flatMap({ WordForms.Number(rawValue: String($0)) }) {
                    found.number = number
                }
                byForm[form.lowercased()] = found
            }
        }
        return byForm
    }
}
