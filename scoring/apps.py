from django.apps import AppConfig


class ScoringConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "scoring"
    verbose_name = "Scoring"

    def ready(self) -> None:
        # Imported here, once the apps are loaded: it reaches the models of both apps.
        from scoring import follow

        # Statistics and ratings follow the games whose results change: records announce it
        # (games never import scoring), and a re-score job hands over its games once done.
        follow.connect()
