"""Portuguese (pt): the words quizbot reads and checks in Portuguese texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import LATIN, Language, Numbered, Sheet

LANGUAGE = Language(
    code="pt",
    stopwords=frozenset(
        """o a os as um uma uns umas de do da dos das em no na nos nas num numa ao aos à às
        por pelo pela pelos pelas para com sem e ou mas não nem é são era eram foi foram ser
        sido está estão que qual quais quem como quando onde porque se seu sua seus suas
        este esta estes estas esse essa esses essas isso isto cada todo toda todos todas
        também só apenas mais menos muito muitos entre sobre sob até após já ainda mesmo
        mesma outro outra outros outras dele dela deles delas lhe lhes ele ela eles elas
        faz fazer feito pode podem deve devem tem têm há assim então""".split()
    ),
    above_phrases=(
        r"\b(?:todas|todos) (?:as |os )?(?:anteriores|acima)\b",
        r"\b(?:todas|todos) (?:as |os )?(?:alternativas|opções|respostas) "
        r"(?:anteriores|acima)\b",
        r"\b(?:nenhuma|nenhum) (?:das |dos )?(?:anteriores|acima)\b",
        r"\b(?:nenhuma|nenhum) (?:das |dos )?(?:alternativas|opções|respostas) "
        r"(?:anteriores|acima)\b",
        r"\bambas as (?:anteriores|alternativas acima|opções acima)\b",
    ),
    true_words=("Verdadeiro", "Certo"),
    false_words=("Falso", "Errado"),
    count_words=("de",),
    sheet=Sheet(
        question=("Pergunta", "Questão", "Questao", "Enunciado"),
        answer=("Resposta", "Resposta correta", "Gabarito", "Alternativa correta"),
        explanation=("Explicação", "Explicacao", "Resolução", "Resolucao"),
        picture=("Imagem", "Foto"),
        kind=("Tipo",),
        option=("Opção", "Opcao", "Alternativa"),
        true=("Verdadeiro",),
        false=("Falso",),
        choice=("múltipla escolha", "escolha"),
        true_false=("verdadeiro-falso", "verdadeiro/falso", "verdadeiro ou falso"),
        source=("Fonte",),
        link=("Link da fonte", "Link"),
        shuffle=("Embaralhar",),
        marks=("Pontos", "Pontuação"),
        waive=("Exceções",),
        settings=("Configurações",),
        title=("Título", "Titulo"),
        description=("Descrição", "Descricao"),
        language=("Idioma", "Língua"),
        level=("Nível", "Nivel", "Dificuldade"),
        minutes=("Minutos", "Tempo limite"),
        penalty=("Penalidade",),
        draw=("Questões por tentativa", "Sorteio"),
        guide=("Guia",),
        guide_label=("Rótulo do guia",),
    ),
    numbered=Numbered(
        answer=("Resposta", "Resposta correta", "Gabarito", "Alternativa correta"),
        explanation=("Explicação", "Explicacao", "Resolução", "Resolucao"),
        letters=LATIN,
        and_words=("e",),
    ),
)
